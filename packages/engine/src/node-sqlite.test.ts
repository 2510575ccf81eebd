import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';
import { runVitestOnNode } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const node24 = node24Path();
if (!node24) console.warn('skipping the node:sqlite run: @cairn/node24 has no Node 24 binary here');

// On Node 24 the engine's SQLite stores (lineage, working state, embedding
// cache) open through node:sqlite instead of better-sqlite3; CI runs Node 20,
// so their tests, writer processes and crash tests included, run again there.
describe.skipIf(!node24)('the engine stores on Node 24 through node:sqlite', () => {
  it('pass the lineage, working-memory and embedding tests', { timeout: 600_000 }, () => {
    const dirs = ['src/lineage', 'src/working', 'src/embeddings'];
    const run = runVitestOnNode(node24!, packageDir, dirs, {
      CAIRN_SQLITE_DRIVER: 'node',
      CAIRN_SQLITE_BINDING: '',
    });
    expect(run.status, run.output.slice(-4000)).toBe(0);
    expect(run.output).toMatch(/Test Files\s+\d+ passed/);
  });
});
