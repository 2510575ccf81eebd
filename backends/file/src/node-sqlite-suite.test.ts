import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { node24Path } from '@cairn/node24';
import { runVitestOnNode } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const node24 = node24Path();

// The whole suite of this package (index, refresh, hybrid search, the
// backend conformance run, crash and concurrency tests) once more on Node
// 24 through node:sqlite; CI runs Node 20, where better-sqlite3 is used.
describe.skipIf(!node24)('the file backend on Node 24 through node:sqlite', () => {
  it('passes every other test file of this package', { timeout: 300_000 }, () => {
    const run = runVitestOnNode(
      node24!,
      packageDir,
      ['--exclude', 'src/node-sqlite-suite.test.ts'],
      {
        CAIRN_SQLITE_DRIVER: 'node',
        CAIRN_SQLITE_BINDING: '',
      },
    );
    expect(run.status, run.output.slice(-4000)).toBe(0);
    expect(run.output).toMatch(/Test Files\s+\d+ passed/);
  });
});

if (!node24) console.warn('skipping the node:sqlite run: @cairn/node24 has no Node 24 binary here');
