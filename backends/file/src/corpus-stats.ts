import type { IndexStore } from './index-store';

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
