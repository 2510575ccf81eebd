import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNode24Tools, type Node24Tools } from './node24-tools';
import {
  parseQmdHits,
  qmdAddCollection,
  qmdBatchSearch,
  qmdEnv,
  qmdHitPath,
  qmdSearchArgs,
} from './qmd-cli';

describe('qmd output', () => {
  it('reads `qmd search --json` hits without the qmd:// prefix', () => {
    const stdout = JSON.stringify([
      { docid: '#3e25aa', score: 0.4, file: 'qmd://notes/2023-05-08.md', line: 5, title: 'x' },
      { docid: '#000001', score: 0.1, file: 'qmd://notes/threads/a.md' },
    ]);
    expect(parseQmdHits(stdout)).toEqual([
      { file: 'notes/2023-05-08.md', line: 5 },
      { file: 'notes/threads/a.md', line: undefined },
    ]);
    expect(parseQmdHits('[]\n')).toEqual([]);
    expect(() => parseQmdHits('{"error":"x"}')).toThrow();
  });

  it('maps a hit to a path inside its collection only', () => {
    expect(qmdHitPath({ file: 'notes/threads/a.md', line: 1 }, 'notes')).toBe('threads/a.md');
    expect(qmdHitPath({ file: 'other/a.md', line: 1 }, 'notes')).toBeUndefined();
  });
});

const lookup = await findNode24Tools();
const reason = lookup.ok ? '' : lookup.reason;

describe.skipIf(!lookup.ok)(`qmd under Node 24 ${reason && `(skipped: ${reason})`}`, () => {
  const tools = (lookup as { tools: Node24Tools }).tools;
  let base: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'cairn-bench-qmd-'));
    folder = join(base, 'notes');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'a.md'), '# Deploys\n\nWe deploy on fridays.\n\nRollback plan.\n');
    await writeFile(join(folder, 'b.md'), '# Hobbies\n\nCaroline joined a pottery class.\n');
    env = qmdEnv(join(base, 'home'));
    qmdAddCollection(tools, env, folder, 'notes');
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('answers a batch like the `qmd search` CLI, every term required', async () => {
    const queries = ['pottery class', 'deploy fridays', 'pottery fridays'];
    const batch = await qmdBatchSearch(
      tools,
      env,
      {
        dbPath: join(base, 'batch.sqlite'),
        collection: 'notes',
        path: folder,
        limit: 10,
        queries: queries.map((text, i) => ({ id: String(i), text })),
      },
      base,
    );
    const cli = queries.map((query) => {
      const run = spawnSync(tools.node, qmdSearchArgs(tools, query, 'notes'), {
        env,
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return parseQmdHits(run.stdout);
    });
    expect(batch.results.map((result) => result.hits)).toEqual(cli);
    expect(cli[0]).toEqual([{ file: 'notes/b.md', line: 3 }]);
    expect(cli[1]!.map((hit) => hit.file)).toEqual(['notes/a.md']);
    // No document holds both terms: qmd's BM25 finds nothing.
    expect(cli[2]).toEqual([]);
  });
});
