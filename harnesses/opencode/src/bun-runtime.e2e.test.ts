import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { makeTempProject } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { opencodeBinary, PACKAGE_DIR } from './testing/opencode-sandbox';

const binary = opencodeBinary();
if (!binary)
  console.warn('skipping the Bun runtime test: the pinned opencode-ai binary is not installed');

/** Runs a script with the Bun inside the OpenCode binary (BUN_BE_BUN=1), as the plugin runs. */
function runInOpencodeBun(script: string, args: string[]): Promise<string> {
  const child = spawn(binary!, [script, ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, BUN_BE_BUN: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((done, fail) =>
    child.once('close', (code) =>
      code === 0 ? done(stdout) : fail(new Error(`exit ${code}: ${stderr}`)),
    ),
  );
}

describe.skipIf(!binary)("SQLite inside OpenCode's Bun runtime", () => {
  it('opens through the bun:sqlite stand-in and runs the engine', {
    timeout: 120_000,
  }, async () => {
    const temp = await makeTempProject('cairn-opencode-bun-');
    try {
      const stdout = await runInOpencodeBun(join(PACKAGE_DIR, 'scripts/bun-sqlite-check.mjs'), [
        temp.root,
      ]);
      const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(out).toMatchObject({
        busyTimeout: 1234,
        journal: [{ journal_mode: 'wal' }],
        returning: { id: 1 },
        run: { changes: 1, lastInsertRowid: 2 },
        pluckAll: ['a', 'b'],
        pluckMissing: 'undefined',
        missing: 'undefined',
        iterate: [{ id: 1 }, { id: 2 }],
        transactions: [1, 1, 1],
        afterRollback: 3,
        userVersion: 3,
        constraintCode: 'SQLITE_CONSTRAINT_PRIMARYKEY',
        closed: true,
        damaged: true,
        summaryKind: 'session_summary',
      });
      expect(typeof out.bun).toBe('string');
      // Session start ran in Bun (a new thread: the pack frame, no unit); the prompt's pack has the unit.
      expect(typeof out.start).toBe('string');
      expect(out.inject).toContain('The staging cluster is called kestrel-stage.');
      expect(out.search).toBeGreaterThan(0);
    } finally {
      await temp.cleanup();
    }
  });
});
