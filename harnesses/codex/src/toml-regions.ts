import { parse } from 'smol-toml';
import { invalidConfig } from './config-toml';

/**
 * Cairn's marked regions in a config.toml (`# >>> cairn: <label>` ...
 * `# <<< cairn: <label>`). Codex edits the file with a TOML library that
 * puts a new table after the last table of its kind, before the comments
 * that end the file: when Cairn's region ends the file, Codex's own writes
 * (`codex exec --trust` adding `[projects."<path>"]`, a hook trusted in
 * /hooks) land between Cairn's markers. So a new region goes before the
 * first table of the file, where what follows it is the user's, and a
 * region is always removed table by table: the tables Cairn owns go, any
 * other table found inside stays (moved out of the markers).
 */

export type OwnedTable = (path: string[]) => boolean;

const BEGIN = '# >>> cairn: ';
const END = '# <<< cairn: ';
export const beginMarker = (label: string) => `${BEGIN}${label}`;
export const endMarker = (label: string) => `${END}${label}`;

/** The key path of a `[table]` or `[[array.of.tables]]` header line, or undefined. */
export function tableHeader(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('[')) return undefined;
  const close = trimmed.lastIndexOf(']');
  if (close < 0 || !/^\s*(#.*)?$/.test(trimmed.slice(close + 1))) return undefined;
  let value: unknown;
  try {
    value = parse(`${trimmed.slice(0, close + 1)}\n`);
  } catch {
    return undefined;
  }
  const path: string[] = [];
  while (value && typeof value === 'object') {
    const node: object = Array.isArray(value) ? value[0] : value;
    const keys = node ? Object.keys(node) : [];
    if (keys.length !== 1) break;
    path.push(keys[0]!);
    value = (node as Record<string, unknown>)[keys[0]!];
  }
  return path;
}

/** Splits text into lines, with the table path of each header line (outside multi-line strings). */
export function scanTables(text: string): { lines: string[]; headers: (string[] | undefined)[] } {
  const lines = text.split('\n');
  let inString = false;
  const headers = lines.map((line) => {
    const header = inString ? undefined : tableHeader(line);
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (quotes % 2 === 1) inString = !inString;
    return header;
  });
  return { lines, headers };
}

/**
 * Removes the tables outside Cairn's regions whose header path `owned`
 * accepts (each up to the next table or region marker): a table Cairn owns
 * that would otherwise be defined twice.
 */
export function removeTables(text: string, owned: OwnedTable): string {
  const { lines, headers } = scanTables(text);
  const keep = lines.map(() => true);
  let inRegion = false;
  for (let start = 0; start < lines.length; start += 1) {
    if (lines[start]!.startsWith(BEGIN)) inRegion = true;
    if (lines[start]!.startsWith(END)) inRegion = false;
    const path = headers[start];
    if (inRegion || !path || !owned(path)) continue;
    let end = start + 1;
    while (end < lines.length && !headers[end] && !/^# (>>>|<<<) cairn: /.test(lines[end]!))
      end += 1;
    // Comments and blank lines just before the next table belong to it.
    while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end -= 1;
    for (let index = start; index < end; index += 1) keep[index] = false;
  }
  return lines.filter((_, index) => keep[index]).join('\n');
}

/** The labels of every Cairn region in the text, in order. */
export function regionLabels(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(BEGIN))
    .map((line) => line.slice(BEGIN.length));
}

interface Region {
  begin: number;
  end: number;
}

function findRegion(path: string, lines: string[], label: string): Region | undefined {
  const begin = lines.indexOf(beginMarker(label));
  if (begin < 0) return undefined;
  const end = lines.indexOf(endMarker(label), begin);
  if (end < 0) throw invalidConfig(path, `Cairn's region "${label}" has no end marker`);
  return { begin, end };
}

/**
 * What a region holds that is not Cairn's: lines before its first table
 * (keys of the table above the region) and every table `owned` rejects,
 * each with its lines up to the next table.
 */
function foreignParts(
  lines: string[],
  headers: (string[] | undefined)[],
  region: Region,
  owned: OwnedTable,
): { leading: string[]; tables: string[] } {
  const leading: string[] = [];
  const tables: string[] = [];
  let seenTable = false;
  let current: string[] | undefined;
  for (let index = region.begin + 1; index < region.end; index += 1) {
    const line = lines[index]!;
    const header = headers[index];
    if (header) {
      seenTable = true;
      current = owned(header) ? undefined : tables;
    } else if (!seenTable) {
      if (line.trim() !== '') leading.push(line);
      continue;
    }
    current?.push(line);
  }
  while (tables.length > 0 && tables[tables.length - 1]!.trim() === '') tables.pop();
  return { leading, tables };
}

/** The tables `owned` rejects inside the region `label` (their header lines), for doctor. */
export function foreignTablesIn(
  path: string,
  text: string,
  label: string,
  owned: OwnedTable,
): string[] {
  const { lines, headers } = scanTables(text);
  const region = findRegion(path, lines, label);
  if (!region) return [];
  const { leading, tables } = foreignParts(lines, headers, region, owned);
  const headerLines = tables.filter((line) => tableHeader(line) !== undefined);
  return [...leading, ...headerLines].map((line) => line.trim());
}

/**
 * The text without Cairn's region `label`: its markers, the blank line
 * Cairn put beside it and the tables `owned` accepts go; anything else the
 * region holds stays where the region was. `body` (when given) takes the
 * region's place, so an existing region is replaced where it stands.
 */
function spliceRegion(
  path: string,
  text: string,
  label: string,
  owned: OwnedTable,
  body?: string[],
): string | undefined {
  const { lines, headers } = scanTables(text);
  const region = findRegion(path, lines, label);
  if (!region) return undefined;
  const { leading, tables } = foreignParts(lines, headers, region, owned);
  let from = region.begin;
  let to = region.end + 1;
  if (!body && leading.length === 0 && tables.length === 0) {
    if (from > 0 && lines[from - 1] === '') from -= 1;
    else if (from === 0 && lines[to] === '' && to < lines.length - 1) to += 1;
  }
  const replacement = body ? [beginMarker(label), ...body, endMarker(label)] : [];
  const kept = tables.length > 0 ? [...(body ? [''] : []), ...tables] : [];
  lines.splice(from, to - from, ...leading, ...replacement, ...kept);
  return lines.join('\n');
}

export function removeRegion(path: string, text: string, label: string, owned: OwnedTable): string {
  return spliceRegion(path, text, label, owned) ?? text;
}

/** The line a new region goes before: the first table, with the comments just above it. */
function insertionLine(text: string): number | undefined {
  const { lines, headers } = scanTables(text);
  let first = headers.findIndex((header) => header !== undefined);
  if (first < 0) return undefined;
  while (first > 0 && /^\s*#/.test(lines[first - 1]!) && !lines[first - 1]!.startsWith(END)) {
    first -= 1;
  }
  return first;
}

/**
 * The text with Cairn's region `label` holding `body`: replaced where it
 * stands, else put before the file's first table (after the top-level
 * keys), else at the end.
 */
export function setRegion(
  path: string,
  text: string,
  label: string,
  body: string[],
  owned: OwnedTable,
): string {
  const replaced = spliceRegion(path, text, label, owned, body);
  if (replaced !== undefined) return replaced;
  const region = [beginMarker(label), ...body, endMarker(label)];
  const at = insertionLine(text);
  if (at === undefined) {
    const base = text.trim() === '' ? '' : text.endsWith('\n') ? text : `${text}\n`;
    return `${base}${base ? '\n' : ''}${region.join('\n')}\n`;
  }
  const lines = text.split('\n');
  const before = at > 0 && lines[at - 1] !== '' ? [''] : [];
  lines.splice(at, 0, ...before, ...region, '');
  return lines.join('\n');
}
