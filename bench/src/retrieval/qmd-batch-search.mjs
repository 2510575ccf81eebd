// Runs under Node 24 (qmd needs Node >= 22): indexes one folder with qmd's
// SDK and answers many queries in one process with the code path of
// `qmd search --json -n <limit>`: searchFTS over max(50, 2 x limit)
// candidates, min score 0, the first <limit>, and extractSnippet for the
// line. One process instead of one per question keeps the LoCoMo run short;
// the bench checks a sample against the real CLI.
//
// Usage: node qmd-batch-search.mjs <qmd package dir> <request.json>
// request: { dbPath, collection, path, limit, queries: [{ id, text }] }
// stdout:  { indexMs, results: [{ id, ms, hits: [{ file, line, score }] }] }
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [qmdDir, requestPath] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, 'utf8'));
const sdk = await import(pathToFileURL(join(qmdDir, 'dist', 'index.js')).href);

const started = performance.now();
const store = await sdk.createStore({
  dbPath: request.dbPath,
  config: { collections: { [request.collection]: { path: request.path, pattern: '**/*.md' } } },
});
await store.update();
const indexMs = performance.now() - started;

const results = [];
for (const query of request.queries) {
  const start = performance.now();
  const rows = await store.searchLex(query.text, {
    limit: Math.max(50, request.limit * 2),
    collection: request.collection,
  });
  const hits = rows.slice(0, request.limit).map((row) => ({
    file: row.displayPath,
    line: sdk.extractSnippet(row.body ?? '', query.text, 300, row.chunkPos, row.chunkLen).line,
    score: row.score,
  }));
  results.push({ id: query.id, ms: performance.now() - start, hits });
}
await store.close();
process.stdout.write(JSON.stringify({ indexMs, results }));
