import type { IndexStore } from './index-store';
import type { PlannedTerm } from './query-plan';

/*
 * What the index's FTS5 tables say of the corpus: its rows and the lengths
 * of their columns (for BM25), and how many chunks hold each term (to leave
 * very common terms out of a query, and for ranking).
 */

/** What BM25 needs of the whole index: its rows and their columns' average lengths in tokens. */
export interface CorpusStats {
  rows: number;
  /** Average tokens per row of each column (text, terms, context), at least 1. */
  columnAverages: [number, number, number];
}

const cached = new WeakMap<IndexStore, { stamp: string; stats: CorpusStats }>();

/** SQLite's variable-length integer (big-endian, 7 bits a byte, the 9th byte whole), as FTS5 writes it. */
function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 8; i += 1) {
    const byte = bytes[at + i] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, next: at + i + 1 };
  }
  return { value: value * 256 + (bytes[at + 8] ?? 0), next: at + 9 };
}

/**
 * Rows and average tokens per row of each column, from the averages record
 * FTS5 keeps (row 1 of its data table: the row count, then the token total
 * of each column). Read again after any write.
 */
export function corpusStats(store: IndexStore): CorpusStats {
  const stamp = store
    .query(
      "SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version) AS stamp",
    )
    .pluck()
    .get() as string;
  const known = cached.get(store);
  if (known?.stamp === stamp) return known.stats;
  const block = store.query('SELECT block FROM chunks_fts_data WHERE id = 1').pluck().get() as
    | Uint8Array
    | undefined;
  const stats: CorpusStats = { rows: 0, columnAverages: [1, 1, 1] };
  if (block && block.length > 0) {
    const first = readVarint(block, 0);
    const rows = first.value;
    let next = first.next;
    const columns: number[] = [];
    while (next < block.length) {
      const read = readVarint(block, next);
      columns.push(read.value);
      next = read.next;
    }
    const average = (tokens: number) => (rows > 0 ? Math.max(1, tokens / rows) : 1);
    stats.rows = rows;
    stats.columnAverages = [
      average(columns[0] ?? 0),
      average(columns[1] ?? 0),
      average(columns[2] ?? 0),
    ];
  }
  cached.set(store, { stamp, stats });
  return stats;
}

/** Tokens per column (text, terms, context) of each row, as FTS5 counted them (its docsize table). */
export function columnLengths(
  store: IndexStore,
  rowids: readonly number[],
): Map<number, [number, number, number]> {
  const out = new Map<number, [number, number, number]>();
  if (rowids.length === 0) return out;
  const rows = store
    .query(
      `SELECT id, sz FROM chunks_fts_docsize WHERE id IN (${rowids.map(() => '?').join(', ')})`,
    )
    .all(...rowids) as { id: number; sz: Uint8Array }[];
  for (const { id, sz } of rows) {
    const lengths: [number, number, number] = [0, 0, 0];
    let next = 0;
    for (let column = 0; column < 3 && next < sz.length; column += 1) {
      const read = readVarint(sz, next);
      lengths[column] = read.value;
      next = read.next;
    }
    out.set(id, lengths);
  }
  return out;
}

/*
 * Which query terms are worth ranking: a term in a large share of the
 * chunks adds little to BM25 and costs a pass over all of them.
 */

/** A term in more than this share of chunks is left out when rarer terms remain. */
export const COMMON_TERM_SHARE = 0.25;
/** Below this many chunks every query is cheap, so nothing is pruned. */
export const MIN_CHUNKS_TO_PRUNE = 2000;
/**
 * A term in more chunks than this is common whatever the index's size:
 * ranking it costs in proportion to its chunks, so without a cap the cost
 * of a query would grow with the corpus. Its share of the score is small
 * (idf) and the rerank still counts it for every candidate.
 */
export const MAX_TERM_CHUNKS = 4000;

/** How many chunks a term may be in before it counts as common. */
function commonLimit(total: number): number {
  return Math.min(total * COMMON_TERM_SHARE, MAX_TERM_CHUNKS);
}

/** A stem's chunk count (null: none) and this connection's change count when it was read. */
interface TermCount {
  docs: number | null;
  changes: number;
}

/** Stem counts, valid while no other connection writes the index (`data_version`). */
interface TermDocs {
  version: number;
  counts: Map<string, TermCount>;
  /** The chunk count, exact while this connection's change count is the one it was read at. */
  total?: { changes: number; chunks: number };
}

/** The index as a query finds it: its term cache, this connection's change count, its chunks. */
interface IndexState {
  cache: TermDocs;
  changes: number;
  total: number;
}

const termDocsCache = new WeakMap<IndexStore, TermDocs>();
const MAX_CACHED_TERMS = 4096;

/** What the pruning needs to know of a stem. */
interface TermUse {
  /** In more than `COMMON_TERM_SHARE` of the chunks, or more than `MAX_TERM_CHUNKS`. */
  common: boolean;
  /** In at least one chunk. */
  present: boolean;
}

/**
 * What a count read earlier says now, if it says it for certain: since it
 * was read, this connection wrote at most `moved` rows (total_changes
 * counts every row a statement or its triggers wrote), so at most `moved`
 * chunks gained or lost the stem, and its count is within `moved` of the
 * one read. Undefined when the answer could have changed.
 */
function certainUse(count: TermCount, moved: number, total: number): TermUse | undefined {
  const limit = commonLimit(total);
  if (count.docs === null) return moved === 0 ? { common: false, present: false } : undefined;
  if (count.docs - moved > limit) return { common: true, present: true };
  if (count.docs + moved <= limit && count.docs - moved > 0)
    return { common: false, present: true };
  return undefined;
}

/**
 * The index's term cache and chunk count: the count is read again only
 * after a write (this connection's or, through `data_version`, another's).
 */
function indexState(store: IndexStore): IndexState {
  const state = store
    .query(
      'SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version',
    )
    .get() as { changes: number; version: number };
  let cache = termDocsCache.get(store);
  if (!cache || cache.version !== state.version || cache.counts.size > MAX_CACHED_TERMS) {
    cache = { version: state.version, counts: new Map() };
    termDocsCache.set(store, cache);
  }
  if (cache.total?.changes !== state.changes) {
    const { chunks } = store.query('SELECT count(*) AS chunks FROM chunks').get() as {
      chunks: number;
    };
    cache.total = { changes: state.changes, chunks };
  }
  return { cache, changes: state.changes, total: cache.total.chunks };
}

/**
 * Whether each stem is common and present. fts5vocab counts a term by
 * reading its whole doclist, so a common term costs in proportion to the
 * corpus: counts are kept and re-read only when the writes since could have
 * changed the answer (a stem near the threshold, or one absent since), or
 * when another connection wrote the index. The answers are exactly those a
 * fresh count gives. One `=` lookup per stem, as fts5vocab scans its whole
 * table for an `IN (...)` list.
 */
function termUses(index: IndexState, store: IndexStore, stems: string[]): Map<string, TermUse> {
  const { cache, changes, total } = index;
  const lookup = store.query('SELECT doc FROM chunks_vocab WHERE term = ?');
  const uses = new Map<string, TermUse>();
  for (const stem of stems) {
    const known = cache.counts.get(stem);
    let use = known && certainUse(known, changes - known.changes, total);
    if (!use) {
      const row = lookup.get(stem) as { doc: number } | undefined;
      const docs = row ? row.doc : null;
      cache.counts.set(stem, { docs, changes });
      use = { common: (docs ?? 0) > commonLimit(total), present: (docs ?? 0) > 0 };
    }
    uses.set(stem, use);
  }
  return uses;
}

/** The terms worth ranking, and whether every one the index holds is a very common one. */
export interface InformativeTerms {
  terms: PlannedTerm[];
  /**
   * Every query word that occurs is common (in more than `COMMON_TERM_SHARE`
   * of the chunks, or `MAX_TERM_CHUNKS`; at least one occurs), in an index of at least
   * `MIN_CHUNKS_TO_PRUNE` chunks: the query says little, and ranking it
   * reads most of the index (see `queryChunks`).
   */
  commonOnly: boolean;
}

/**
 * Drops very common terms. Ranking every chunk that holds such a word
 * costs far more than the word adds to BM25 (its idf is small), so it is
 * left out of the match unless nothing rarer is left (the ranking of the
 * candidates still counts it, see rerank.ts). Frequencies come from the
 * fts5vocab table, keyed by the porter stem the tokenizer stored.
 */
export function informativeTerms(store: IndexStore, terms: PlannedTerm[]): InformativeTerms {
  if (terms.length === 0) return { terms, commonOnly: false };
  const index = indexState(store);
  if (index.total < MIN_CHUNKS_TO_PRUNE) return { terms, commonOnly: false };
  const uses = termUses(index, store, [...new Set(terms.flatMap((term) => term.stems))]);
  // A phrase costs the chunks of all its words: it is common when one of them is.
  const use = (term: PlannedTerm): TermUse => {
    const each = term.stems.map((stem) => uses.get(stem)!);
    return { common: each.some((u) => u.common), present: each.every((u) => u.present) };
  };
  const own = terms.filter((term) => term.own);
  const present = own.filter((term) => use(term).present);
  const commonOnly = present.length > 0 && present.every((term) => use(term).common);
  const kept = terms.filter((term) => !use(term).common);
  // Only prune when a rarer word of the query itself occurs: otherwise it would find nothing,
  // or only what its expansions find.
  const rarerOccurs = own.some((term) => use(term).present && !use(term).common);
  return { terms: terms.length > 1 && rarerOccurs ? kept : terms, commonOnly };
}

/**
 * How many chunks hold each stem, for ranking. A count read earlier is
 * used while the writes since could move it by at most a hundredth (or 10
 * chunks): the ranking needs its order of magnitude, not its last unit. A
 * stem that was absent is looked up again after any write.
 */
export function docCounts(store: IndexStore, stems: readonly string[]): Map<string, number> {
  const index = indexState(store);
  const lookup = store.query('SELECT doc FROM chunks_vocab WHERE term = ?');
  const out = new Map<string, number>();
  for (const stem of stems) {
    if (out.has(stem)) continue;
    const known = index.cache.counts.get(stem);
    const moved = known ? index.changes - known.changes : 0;
    // An absent stem is looked up again after any write: whether it occurs decides what is searched.
    const close = known?.docs ? moved <= Math.max(10, known.docs / 100) : moved === 0;
    if (known && close) {
      out.set(stem, known.docs ?? 0);
      continue;
    }
    const row = lookup.get(stem) as { doc: number } | undefined;
    const docs = row ? row.doc : null;
    index.cache.counts.set(stem, { docs, changes: index.changes });
    out.set(stem, docs ?? 0);
  }
  return out;
}

/** The number of chunks, as the pruning last read it. */
export function chunkCount(store: IndexStore): number {
  return indexState(store).total;
}
