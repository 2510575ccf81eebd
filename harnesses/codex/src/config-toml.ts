import { CairnError } from '@cairn/core';
import { parse } from 'smol-toml';

/**
 * Textual edits of Codex's config.toml that keep the user's comments and
 * formatting: Cairn's tables live in a marked region that install replaces
 * and uninstall removes; nothing outside it is rewritten, except a stray
 * table Cairn owns (`[mcp_servers.cairn]`, a trust entry of Cairn's hooks)
 * that would otherwise be defined twice. Every edit is checked by parsing
 * the result and comparing everything that is not Cairn's with the input.
 */
type Toml = Record<string, unknown>;

const invalid = (path: string, message: string, cause?: unknown) =>
  new CairnError('INVALID_CONFIG', `${path}: ${message}`, {
    cause,
    hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
    details: { path },
  });

export function parseToml(path: string, text: string | undefined): Toml {
  if (text === undefined || text.trim() === '') return {};
  try {
    return parse(text) as Toml;
  } catch (error) {
    throw invalid(path, `not valid TOML: ${(error as Error).message.split('\n')[0]}`, error);
  }
}

/** The key path of a `[table]` header line, or undefined when the line is not one. */
export function headerPath(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('[') || trimmed.startsWith('[[')) return undefined;
  const close = trimmed.lastIndexOf(']');
  if (close < 0 || !/^\s*(#.*)?$/.test(trimmed.slice(close + 1))) return undefined;
  let value: unknown;
  try {
    value = parse(`${trimmed.slice(0, close + 1)}\n`);
  } catch {
    return undefined;
  }
  const path: string[] = [];
  while (value && typeof value === 'object' && Object.keys(value).length === 1) {
    const key = Object.keys(value)[0]!;
    path.push(key);
    value = (value as Toml)[key];
  }
  return path;
}

const beginMarker = (label: string) => `# >>> cairn: ${label}`;
const endMarker = (label: string) => `# <<< cairn: ${label}`;

/** Splits text into lines, marking which start a table (outside multi-line strings). */
function scan(text: string): { lines: string[]; headers: (string[] | undefined)[] } {
  const lines = text.split('\n');
  let inString = false;
  const headers = lines.map((line) => {
    const header = inString ? undefined : headerPath(line);
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (quotes % 2 === 1) inString = !inString;
    return header;
  });
  return { lines, headers };
}

/** Removes the tables whose header path `owned` accepts (up to the next table or region marker). */
export function removeTables(text: string, owned: (path: string[]) => boolean): string {
  const { lines, headers } = scan(text);
  const keep = lines.map(() => true);
  for (let start = 0; start < lines.length; start += 1) {
    const path = headers[start];
    if (!path || !owned(path)) continue;
    let end = start + 1;
    while (end < lines.length && !headers[end] && !lines[end]!.startsWith('# >>> cairn:')) end += 1;
    // Comments and blank lines just before the next table belong to it.
    while (end > start + 1 && /^\s*(#.*)?$/.test(lines[end - 1]!)) end -= 1;
    for (let index = start; index < end; index += 1) keep[index] = false;
  }
  return lines.filter((_, index) => keep[index]).join('\n');
}

/** Text without Cairn's region `label` (and the blank line Cairn put before it). */
export function removeRegion(path: string, text: string, label: string): string {
  const lines = text.split('\n');
  const begin = lines.indexOf(beginMarker(label));
  if (begin < 0) return text;
  const end = lines.indexOf(endMarker(label), begin);
  if (end < 0) throw invalid(path, `Cairn's region "${label}" has no end marker`);
  const from = begin > 0 && lines[begin - 1] === '' ? begin - 1 : begin;
  lines.splice(from, end - from + 1);
  return lines.join('\n');
}

/** Text with Cairn's region `label` holding `body` at the end (replacing an older one). */
export function setRegion(path: string, text: string, label: string, body: string[]): string {
  const without = removeRegion(path, text, label);
  const base = without.trim() === '' ? '' : without.endsWith('\n') ? without : `${without}\n`;
  const region = [beginMarker(label), ...body, endMarker(label)].join('\n');
  return `${base}${base ? '\n' : ''}${region}\n`;
}

export const tomlString = (value: string) => JSON.stringify(value);

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Toml)[key])]),
  );
}

/**
 * Checks an edit: the result parses, and with `strip` (which removes Cairn's
 * entries from a parsed config) both sides are equal, so the user's settings
 * came through untouched.
 */
export function checkTomlEdit(
  path: string,
  before: string | undefined,
  after: string,
  strip: (config: Toml) => Toml,
): void {
  const old = strip(parseToml(path, before));
  let next: Toml;
  try {
    next = strip(parse(after) as Toml);
  } catch (error) {
    throw invalid(
      path,
      `Cairn could not edit this file textually: ${(error as Error).message}`,
      error,
    );
  }
  if (JSON.stringify(canonical(old)) !== JSON.stringify(canonical(next))) {
    throw invalid(
      path,
      "Cairn's edit would change settings that are not Cairn's (a Cairn table defined inline or in an unusual layout?)",
    );
  }
}
