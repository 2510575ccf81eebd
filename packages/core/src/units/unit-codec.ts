import {
  type DocumentIssue,
  type LocatedUnit,
  MEMORY_CATEGORIES,
  type MemoryCategory,
  type MemoryUnit,
  type ParsedDocument,
  type RawSegment,
  REVIEW_STATES,
  type ReviewState,
  UNIT_ID_PATTERN,
} from './unit-types';

/**
 * The marker format of a managed unit (ARCHITECTURE.md, seed 003):
 *
 *   <!-- cairn:memory:item:start memory_id=UNIT:<uuid> category=decision review=approved created_at=… updated_at=… -->
 *   Use pnpm for dependency management in this workspace.
 *   <!-- cairn:memory:item:end -->
 *
 * followed by a `----` separator line. Markers are metadata and never part
 * of indexed or recalled text.
 */
export const UNIT_START_PREFIX = '<!-- cairn:memory:item:start';
export const UNIT_END_MARKER = '<!-- cairn:memory:item:end -->';
/** A hard chunk boundary; a user line equal to it is stored as `---`. */
export const BLOCK_SEPARATOR = '----';

const START_LINE = /^<!-- cairn:memory:item:start((?:\s+[^\s]+)*)\s*-->$/;
const SAFE_VALUE = /^[A-Za-z0-9._:@/+-]+$/;

function encodeValue(value: string): string {
  return SAFE_VALUE.test(value) ? value : encodeURIComponent(value);
}

/** One unit as markdown: start marker, body, end marker, then the `----` separator. */
export function serializeUnit(unit: MemoryUnit): string {
  return `${serializeUnitBlock(unit)}\n\n${BLOCK_SEPARATOR}\n`;
}

/** The marker-delimited block alone (no trailing newline), for replacing a unit in place. */
export function serializeUnitBlock(unit: MemoryUnit): string {
  const attributes = [
    `memory_id=${unit.memoryId}`,
    `category=${unit.category}`,
    `review=${unit.review}`,
    `created_at=${unit.createdAt}`,
    `updated_at=${unit.updatedAt}`,
    ...(unit.source ? [`source=${encodeValue(unit.source)}`] : []),
  ];
  return `${UNIT_START_PREFIX} ${attributes.join(' ')} -->\n${unit.text}\n${UNIT_END_MARKER}`;
}

function isIsoInstant(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value) && !Number.isNaN(Date.parse(value))
  );
}

/** Parses the attributes of a start marker; undefined when any is missing or invalid. */
export function parseUnitAttributes(line: string): Omit<MemoryUnit, 'text'> | undefined {
  const match = START_LINE.exec(line.trim());
  if (!match) return undefined;
  const attributes = new Map<string, string>();
  for (const token of (match[1] ?? '').trim().split(/\s+/).filter(Boolean)) {
    const at = token.indexOf('=');
    if (at <= 0) return undefined;
    let value: string;
    try {
      value = decodeURIComponent(token.slice(at + 1));
    } catch {
      return undefined;
    }
    attributes.set(token.slice(0, at), value);
  }
  const memoryId = attributes.get('memory_id') ?? '';
  const category = attributes.get('category') as MemoryCategory;
  const review = (attributes.get('review') ?? 'approved') as ReviewState;
  const createdAt = attributes.get('created_at') ?? '';
  const updatedAt = attributes.get('updated_at') ?? createdAt;
  if (!UNIT_ID_PATTERN.test(memoryId) || !MEMORY_CATEGORIES.includes(category)) return undefined;
  if (!REVIEW_STATES.includes(review) || !isIsoInstant(createdAt) || !isIsoInstant(updatedAt)) {
    return undefined;
  }
  const source = attributes.get('source');
  return { memoryId, category, review, createdAt, updatedAt, ...(source ? { source } : {}) };
}

/** Any whole-line Cairn comment (unit markers, head markers): metadata, never RAW text. */
const CAIRN_COMMENT = /^\s*<!--\s*cairn:.*-->\s*$/;
const isStart = (line: string) => line.trimStart().startsWith(UNIT_START_PREFIX);
const isEnd = (line: string) => line.trim() === UNIT_END_MARKER;

interface OpenUnit {
  attributes: Omit<MemoryUnit, 'text'> | undefined;
  startLine: number;
}

/** One parse of one file: what has been found so far, and the unit being read. */
interface DocumentParse {
  path: string;
  lines: string[];
  units: LocatedUnit[];
  issues: DocumentIssue[];
  rawLines: Set<number>;
  seen: Set<string>;
  open: OpenUnit | undefined;
}

function addIssue(
  parse: DocumentParse,
  line: number,
  kind: DocumentIssue['kind'],
  message: string,
): void {
  parse.issues.push({ path: parse.path, line, kind, message });
}

/** Lines `from` to `to` (1-based, inclusive) become RAW text. */
function demote(parse: DocumentParse, from: number, to: number): void {
  for (let n = from; n <= to; n += 1) parse.rawLines.add(n);
}

/** A start marker: a unit still open before it is damaged and demoted. */
function startUnit(parse: DocumentParse, line: string, lineNo: number): void {
  if (parse.open) {
    const message = 'unit start marker without an end before the next start';
    addIssue(parse, parse.open.startLine, 'nested_start', message);
    demote(parse, parse.open.startLine, lineNo - 1);
  }
  parse.open = { attributes: parseUnitAttributes(line), startLine: lineNo };
}

/** An end marker: the open unit is kept, or demoted when its attributes or id are bad. */
function endUnit(parse: DocumentParse, index: number): void {
  const lineNo = index + 1;
  const open = parse.open;
  if (!open) {
    addIssue(parse, lineNo, 'stray_end', 'unit end marker without a start');
    parse.rawLines.add(lineNo);
    return;
  }
  // A file saved with CRLF line ends: the `\r` is the line end, not unit text.
  const body = parse.lines
    .slice(open.startLine, index)
    .map((bodyLine) => (bodyLine.endsWith('\r') ? bodyLine.slice(0, -1) : bodyLine))
    .join('\n');
  const attributes = open.attributes;
  if (!attributes) {
    const message = 'unit start marker with missing or invalid attributes';
    addIssue(parse, open.startLine, 'invalid_attributes', message);
    demote(parse, open.startLine, lineNo);
  } else if (parse.seen.has(attributes.memoryId)) {
    addIssue(
      parse,
      open.startLine,
      'duplicate_id',
      `${attributes.memoryId} appears more than once`,
    );
    demote(parse, open.startLine, lineNo);
  } else {
    parse.seen.add(attributes.memoryId);
    const { path } = parse;
    parse.units.push({
      ...attributes,
      text: body,
      path,
      startLine: open.startLine,
      endLine: lineNo,
    });
  }
  parse.open = undefined;
}

/**
 * Parses a workspace file into managed units and RAW segments. Damage never
 * loses text: an unterminated or nested unit, a stray end marker or a start
 * marker with invalid attributes turns that region into RAW, and an issue
 * records where. Lines are 1-based.
 */
export function parseMemoryDocument(text: string, path: string): ParsedDocument {
  const lines = text.split('\n');
  const parse: DocumentParse = {
    path,
    lines,
    units: [],
    issues: [],
    rawLines: new Set(),
    seen: new Set(),
    open: undefined,
  };
  lines.forEach((line, index) => {
    if (isStart(line)) startUnit(parse, line, index + 1);
    else if (isEnd(line)) endUnit(parse, index);
    else if (!parse.open) parse.rawLines.add(index + 1);
  });
  if (parse.open) {
    const { startLine } = parse.open;
    addIssue(parse, startLine, 'unterminated_unit', 'unit start marker never closed');
    demote(parse, startLine, lines.length);
  }
  const { units, issues, rawLines } = parse;
  return { path, units, raw: rawSegments(lines, rawLines, path), issues };
}

/**
 * Groups RAW lines into paragraphs split at blank lines. `block` numbers
 * the regions between hard boundaries (a `----` line or a unit), so a
 * chunker can merge paragraphs of one block and never cross a boundary.
 */
function rawSegments(lines: string[], rawLines: Set<number>, path: string): RawSegment[] {
  const segments: RawSegment[] = [];
  let current: number[] = [];
  let block = 0;
  const flush = () => {
    if (current.length > 0) {
      const text = current.map((n) => lines[n - 1]).join('\n');
      segments.push({ path, startLine: current[0]!, endLine: current.at(-1)!, text, block });
    }
    current = [];
  };
  for (let n = 1; n <= lines.length; n += 1) {
    const line = lines[n - 1]!;
    const hard = !rawLines.has(n) || line.trim() === BLOCK_SEPARATOR;
    // Marker lines of damaged regions stay in the file but are metadata, never RAW text.
    const marker = CAIRN_COMMENT.test(line);
    if (hard || marker || line.trim() === '') flush();
    if (hard) {
      if (segments.at(-1)?.block === block) block += 1;
      continue;
    }
    if (!marker && line.trim() !== '') current.push(n);
  }
  flush();
  return segments;
}
