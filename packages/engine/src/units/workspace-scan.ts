import {
  compareCodeUnits,
  duplicateSignature,
  isUnsafePathError,
  type LocatedUnit,
  listMemoryFilesSync,
  type ParsedDocument,
  parseMemoryDocument,
  type RawSegment,
  rawMemoryId,
  readMemoryFile,
} from '@cairn/core';
import { DedupIndex } from './dedup-index';
import type { DuplicateResult, MemoryRecord } from './unit-results';
import { statWorkspaceFile, type WorkspaceWatch } from './workspace-watch';

/**
 * Parsed files by path, with the size and modification time they were read
 * at. A file whose size and mtime are unchanged is not read again, unless
 * it changed less than RACY_MS before it was read (the same rule git uses
 * for its index: a write within the clock's resolution of the read could
 * leave both unchanged). A file that changed is read, and parsed again only
 * when its text changed.
 */
export type ParseCache = Map<
  string,
  { text: string; document: ParsedDocument; bytes: number; mtimeMs: number; readAt: number }
>;

const RACY_MS = 2000;

type FileStat = { path: string; bytes: number; mtimeMs: number };

/** The documents a cache last answered, so an unchanged workspace answers the same array. */
const answered = new WeakMap<ParseCache, ParsedDocument[]>();

function unchanged(cache: ParseCache, file: FileStat): boolean {
  const cached = cache.get(file.path);
  return (
    cached !== undefined &&
    cached.bytes === file.bytes &&
    cached.mtimeMs === file.mtimeMs &&
    file.mtimeMs < cached.readAt - RACY_MS
  );
}

/** A read that failed: a link or a FIFO is refused loudly; anything else drops the file (doctor says why). */
function unreadable(error: unknown): undefined {
  if (isUnsafePathError(error)) throw error;
  return undefined;
}

/**
 * Reads and parses one listed file into the cache; false when it cannot be
 * read (it is dropped). `folders`: those the listing just found real.
 */
async function load(
  rootDir: string,
  cache: ParseCache,
  file: FileStat,
  folders?: Set<string>,
): Promise<boolean> {
  const cached = cache.get(file.path);
  const readAt = Date.now();
  const text = await readMemoryFile(rootDir, file.path, { folders }).catch(unreadable);
  if (text === undefined) {
    cache.delete(file.path);
    return false;
  }
  const document = cached?.text === text ? cached.document : parseMemoryDocument(text, file.path);
  cache.set(file.path, { text, document, bytes: file.bytes, mtimeMs: file.mtimeMs, readAt });
  return true;
}

/** `documents`, or the array last answered when it holds the same documents (identity is a cache key). */
function answer(cache: ParseCache, documents: ParsedDocument[]): ParsedDocument[] {
  const last = answered.get(cache);
  if (last?.length === documents.length && last.every((doc, i) => doc === documents[i]))
    return last;
  answered.set(cache, documents);
  return documents;
}

/**
 * Every workspace file, parsed, sorted by path. Unreadable files are
 * skipped (doctor reports them); a link under `.cairn/` throws
 * INVALID_PATH. With a watch, only the files it names are looked at
 * again, unless it asks for a full listing.
 */
export async function scanWorkspace(
  rootDir: string,
  cache: ParseCache = new Map(),
  watch?: WorkspaceWatch,
): Promise<ParsedDocument[]> {
  const changed = await watch?.changes();
  if (changed && answered.has(cache)) return rescan(rootDir, cache, changed);
  const documents: ParsedDocument[] = [];
  const seen = new Set<string>();
  // The folders are checked once for the listing and the reads of this scan.
  const folders = new Set<string>();
  for (const file of listMemoryFilesSync(rootDir, folders)) {
    if (!unchanged(cache, file) && !(await load(rootDir, cache, file, folders))) continue;
    seen.add(file.path);
    documents.push(cache.get(file.path)!.document);
  }
  for (const path of cache.keys()) if (!seen.has(path)) cache.delete(path);
  return answer(cache, documents);
}

/** The cached scan with the `changed` paths looked at again: what a full scan would answer. */
async function rescan(
  rootDir: string,
  cache: ParseCache,
  changed: Set<string>,
): Promise<ParsedDocument[]> {
  let moved = false;
  for (const path of changed) {
    const file = statWorkspaceFile(rootDir, path);
    if (file && unchanged(cache, file)) continue;
    if (file) {
      moved = true;
      await load(rootDir, cache, file);
    } else if (cache.delete(path)) moved = true;
  }
  if (!moved) return answered.get(cache)!;
  const paths = [...cache.keys()].sort(compareCodeUnits);
  return answer(
    cache,
    paths.map((path) => cache.get(path)!.document),
  );
}

/** Records of parsed units, kept as long as their parsed document is; frozen, as they are shared. */
const records = new WeakMap<LocatedUnit, MemoryRecord>();

export function unitRecord(unit: LocatedUnit): MemoryRecord {
  let record = records.get(unit);
  if (!record) {
    record = Object.freeze(buildUnitRecord(unit));
    records.set(unit, record);
  }
  return record;
}

function buildUnitRecord(unit: LocatedUnit): MemoryRecord {
  const { memoryId, path, startLine, endLine, text, category, review, createdAt, updatedAt } = unit;
  return {
    memoryId,
    kind: 'UNIT',
    path,
    startLine,
    endLine,
    text,
    category,
    review,
    createdAt,
    updatedAt,
    ...(unit.source ? { source: unit.source } : {}),
  };
}

export function rawRecord(segment: RawSegment): MemoryRecord {
  const { path, startLine, endLine, text } = segment;
  return { memoryId: rawMemoryId(segment), kind: 'RAW', path, startLine, endLine, text };
}

export function findUnit(documents: ParsedDocument[], memoryId: string): LocatedUnit | undefined {
  for (const document of documents) {
    const unit = document.units.find((u) => u.memoryId === memoryId);
    if (unit) return unit;
  }
  return undefined;
}

/**
 * The first unit or RAW paragraph that duplicates `text` (docs/UNITS.md
 * states the rule), skipping the unit `exceptId` and deprecated units. The
 * workspace is probed through a duplicate index (dedup-index.ts), so a
 * year of units is not compared text by text; a unit store passes the one
 * it keeps, which indexes only the files that changed since its last call.
 */
export function findDuplicate(
  documents: readonly ParsedDocument[],
  text: string,
  exceptId?: string,
  index: DedupIndex = new DedupIndex(),
): DuplicateResult | undefined {
  const wanted = duplicateSignature(text);
  index.sync(documents);
  const found = index.find(wanted, (item) =>
    item.kind === 'UNIT'
      ? item.unit.memoryId !== exceptId && item.unit.review !== 'deprecated'
      : true,
  );
  if (found?.kind === 'UNIT') {
    const { memoryId, path, category, text: existing } = found.unit;
    return {
      action: 'duplicate',
      existing: { memoryId, kind: 'UNIT', path, category, text: existing },
    };
  }
  if (found?.kind === 'RAW') {
    const record = rawRecord(found.segment);
    return {
      action: 'duplicate',
      existing: { memoryId: record.memoryId, kind: 'RAW', path: record.path, text: record.text },
    };
  }
  return undefined;
}
