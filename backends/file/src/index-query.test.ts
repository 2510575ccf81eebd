import type { MemoryChunk } from '@cairn/core';
import { wordStem } from '@cairn/index-kit';
import { openSqlite } from '@cairn/sqlite';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTEXT_WEIGHT } from './chunk-context';
import { COMMON_TERM_SHARE, informativeTerms, MIN_CHUNKS_TO_PRUNE } from './corpus-stats';
import { COMMON_QUERY_WINDOW, queryChunks } from './index-query';
import { IndexStore } from './index-store';
import type { PlannedTerm, QueryPlan } from './query-plan';

/** The query's own words, one planned term each (repeats kept, as a caller may pass them). */
function planned(words: string[]): PlannedTerm[] {
  return words.map((word) => ({ words: [word], stems: [wordStem(word)], weight: 1, own: true }));
}

function planOf(words: string[]): QueryPlan {
  return { terms: planned(words) };
}

/** The words `informativeTerms` keeps. */
function keepInformativeTerms(target: IndexStore, words: string[]): string[] {
  return informativeTerms(target, planned(words)).terms.map((term) => term.words[0]!);
}

let project: TempProject;
let store: IndexStore;
beforeEach(async () => {
  project = await makeTempProject();
  store = new IndexStore(openSqlite(`${project.root}/search.sqlite`, 'a test index'), 'test');
});
afterEach(async () => {
  store.close();
  await project.cleanup();
});

/** A small deterministic generator (an LCG). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Words with very different frequencies: `w0` is in nearly every chunk, `w39` in few. */
const WORDS = Array.from({ length: 40 }, (_, index) => `w${index}`);
const TERMS = [...WORDS, 'deploying', 'deployed', 'missing'];

function fill(chunks: number, seed: number, path = 'notes.md', target = store): void {
  const next = random(seed);
  const made: MemoryChunk[] = Array.from({ length: chunks }, (_, index) => {
    const words = WORDS.filter((_, rank) => next() < 0.9 / (rank + 1) ** 0.9);
    if (next() < 0.05) words.push(next() < 0.5 ? 'deploying' : 'deployed');
    return {
      id: `${path}#L${index + 1}-L${index + 1}`,
      kind: 'RAW',
      path,
      startLine: index + 1,
      endLine: index + 1,
      text: words.join(' ') || 'empty',
    };
  });
  target.apply({
    pool: 'workspace',
    restat: [],
    removed: [],
    updates: [{ path, size: 1, mtimeMs: 1, hash: 'h', chunks: made }],
  });
}

/** The previous implementation: every stem looked up at once with `IN (...)`. */
function reference(terms: string[]): string[] {
  if (terms.length < 2) return terms;
  const stems = terms.map((term) => wordStem(term));
  const rows = store
    .query(`SELECT term, doc FROM chunks_vocab WHERE term IN (${stems.map(() => '?').join(', ')})`)
    .all(...stems) as { term: string; doc: number }[];
  const { total } = store.query('SELECT count(*) AS total FROM chunks').get() as { total: number };
  if (total < MIN_CHUNKS_TO_PRUNE) return terms;
  const common = new Set(
    rows.filter((row) => row.doc > total * COMMON_TERM_SHARE).map((row) => row.term),
  );
  const present = new Set(rows.map((row) => row.term));
  const kept = terms.filter((_, index) => !common.has(stems[index]!));
  return kept.some((_, index) => present.has(wordStem(kept[index]!))) ? kept : terms;
}

function queries(count: number, seed: number): string[][] {
  const next = random(seed);
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(next() * 5) },
      () => TERMS[Math.floor(next() * TERMS.length)]!,
    ),
  );
}

describe('informativeTerms', () => {
  it('keeps every term of a small index', () => {
    fill(300, 3);
    for (const terms of queries(50, 5)) expect(keepInformativeTerms(store, terms)).toEqual(terms);
  });

  it('drops the same common terms as the IN (...) lookup did, on generated data', () => {
    fill(MIN_CHUNKS_TO_PRUNE + 500, 7);
    let pruned = 0;
    for (const terms of queries(300, 11)) {
      const kept = keepInformativeTerms(store, terms);
      expect(kept, terms.join(' ')).toEqual(reference(terms));
      if (kept.length < terms.length) pruned += 1;
    }
    // The data exercises both sides: some queries lose terms, others keep all.
    expect(pruned).toBeGreaterThan(20);
    expect(pruned).toBeLessThan(280);
    expect(keepInformativeTerms(store, ['w0', 'w1'])).toEqual(['w0', 'w1']);
    expect(keepInformativeTerms(store, ['w0', 'missing'])).toEqual(['w0', 'missing']);
  });

  it('answers queries with the pruned terms', () => {
    fill(MIN_CHUNKS_TO_PRUNE + 500, 13);
    const hits = queryChunks(store, { pool: 'workspace', plan: planOf(['w0', 'w39']), limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.text.split(' ')).toContain('w39');
  });

  it('counts terms again after the index changes, by this connection or another', () => {
    fill(MIN_CHUNKS_TO_PRUNE + 500, 17);
    const asked = queries(200, 19);
    const check = () => {
      for (const terms of asked)
        expect(keepInformativeTerms(store, terms)).toEqual(reference(terms));
    };
    check();
    // Rare words become common: the cached counts must not survive the write.
    const skewed = (path: string, target: IndexStore) =>
      target.apply({
        pool: 'workspace',
        restat: [],
        removed: [],
        updates: [
          {
            ...{ path, size: 1, mtimeMs: 1, hash: 'h' },
            chunks: Array.from({ length: 1500 }, (_, index) => ({
              id: `${path}#L${index + 1}-L${index + 1}`,
              kind: 'RAW' as const,
              path,
              startLine: index + 1,
              endLine: index + 1,
              text: 'w30 w35 w39 deployed',
            })),
          },
        ],
      });
    skewed('skewed.md', store);
    check();
    const other = new IndexStore(
      openSqlite(`${project.root}/search.sqlite`, 'a test index'),
      'test',
    );
    try {
      skewed('other.md', other);
      other.apply({ pool: 'workspace', restat: [], removed: ['skewed.md'], updates: [] });
    } finally {
      other.close();
    }
    check();
  });

  it('answers as a fresh count after each of many small writes, counting again only near the line', () => {
    fill(MIN_CHUNKS_TO_PRUNE + 500, 29);
    const asked = queries(40, 31);
    let lookups = 0;
    const query = store.query.bind(store);
    store.query = (sql: string) => {
      if (sql.includes('FROM chunks_vocab WHERE term = ?')) {
        const statement = query(sql);
        return {
          ...statement,
          get: (...args: unknown[]) => {
            lookups += 1;
            return statement.get(...args);
          },
        } as never;
      }
      return query(sql);
    };
    for (let write = 0; write < 25; write += 1) {
      // One small file a write, of words some queries use: counts move by a few.
      store.apply({
        pool: 'workspace',
        restat: [],
        removed: [],
        updates: [
          {
            ...{ path: `small-${write}.md`, size: 1, mtimeMs: 1, hash: `h${write}` },
            chunks: [
              {
                id: `small-${write}.md#L1-L1`,
                kind: 'RAW' as const,
                path: `small-${write}.md`,
                startLine: 1,
                endLine: 1,
                text: `w${write % 40} w${(write * 7) % 40}`,
              },
            ],
          },
        ],
      });
      for (const terms of asked)
        expect(keepInformativeTerms(store, terms)).toEqual(reference(terms));
    }
    // Far fewer lookups than one per stem per query per write.
    const stems = new Set(asked.flat()).size;
    expect(lookups).toBeLessThan(stems * 25);
  });
});

describe('queryChunks', () => {
  it('reads the ranked candidates by rowid, not through the pool index', () => {
    fill(300, 23);
    const asked: string[] = [];
    const query = store.query.bind(store);
    store.query = (sql: string) => {
      asked.push(sql);
      return query(sql);
    };
    const hits = queryChunks(store, { pool: 'workspace', plan: planOf(['w1', 'w30']), limit: 3 });
    expect(hits).toHaveLength(3);
    const read = asked.find((sql) => sql.includes('c.rowid IN'))!;
    const ids = hits.map((hit) => hit.rowid);
    const params = [
      ...ids,
      ...Array.from({ length: (read.match(/\?/g)?.length ?? 0) - ids.length }, () => 'workspace'),
    ];
    const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${read}`).all(...params) as {
      detail: string;
    }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/INTEGER PRIMARY KEY/);
    expect(plan.map((row) => row.detail).join('\n')).not.toMatch(/chunks_by_file/);
  });

  it('ranks a query of only very common words among the newest chunks, and the whole index when they fall short', () => {
    // An older pool first, then the workspace: the newest chunks are all the workspace's.
    const next = random(29);
    const old: MemoryChunk[] = Array.from({ length: 300 }, (_, index) => ({
      id: `old.md#L${index + 1}`,
      kind: 'RAW',
      path: 'old.md',
      startLine: index + 1,
      endLine: index + 1,
      text: next() < 0.9 ? 'w0 archived' : 'archived',
    }));
    store.apply({
      pool: 'archive',
      restat: [],
      removed: [],
      updates: [{ path: 'old.md', size: 1, mtimeMs: 1, hash: 'h', chunks: old }],
    });
    fill(COMMON_QUERY_WINDOW + 1000, 31);
    expect(informativeTerms(store, planned(['w0']))).toEqual({
      terms: planned(['w0']),
      commonOnly: true,
    });
    expect(informativeTerms(store, planned(['w0', 'missing'])).commonOnly).toBe(true);
    expect(informativeTerms(store, planned(['w0', 'w39']))).toEqual({
      terms: planned(['w39']),
      commonOnly: false,
    });

    const { from } = store
      .query('SELECT rowid AS "from" FROM chunks ORDER BY rowid DESC LIMIT 1 OFFSET ?')
      .get(COMMON_QUERY_WINDOW - 1) as { from: number };
    const hits = queryChunks(store, { pool: 'workspace', plan: planOf(['w0']), limit: 5 });
    expect(hits).toHaveLength(5);
    expect(hits.every((hit) => hit.rowid >= from)).toBe(true);
    // Drawn from the window's own best candidates.
    const ranked = store
      .query(
        `SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH 'w0' AND rowid >= ?
         ORDER BY bm25(chunks_fts, 1.0, 1.0, ${CONTEXT_WEIGHT}), rowid LIMIT 50`,
      )
      .all(from) as { id: number }[];
    const best = new Set(ranked.map((row) => row.id));
    expect(hits.every((hit) => best.has(hit.rowid))).toBe(true);
    // The archive's chunks are all older than the window: the whole index answers.
    const archived = queryChunks(store, { pool: 'archive', plan: planOf(['w0']), limit: 5 });
    expect(archived).toHaveLength(5);
    expect(archived.every((hit) => hit.path === 'old.md')).toBe(true);
  });
});
