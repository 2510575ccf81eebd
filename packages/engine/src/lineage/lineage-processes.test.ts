import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LineageFixture, makeLineageFixture, reachable } from './lineage.fixture';
import { loadSqlite } from './lineage-database';
import { LINEAGE_SCHEMA_VERSION } from './lineage-migrations';
import { lineageDatabasePath } from './lineage-store';
import type { WriterArgs } from './lineage-writer-child.fixture';

const WRITERS = 16;
const WRITES = 20;
const childScript = fileURLToPath(new URL('./lineage-writer-child.fixture.ts', import.meta.url));
/** tsx's ESM loader, resolved from here so the child does not depend on its cwd. */
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Writer {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | string>;
  output: () => string;
}

function startWriter(args: WriterArgs): Writer {
  const child = spawn(
    process.execPath,
    ['--import', tsxLoader, childScript, JSON.stringify(args)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
      if (stdout.includes('ready')) resolve();
    });
    exited.then((how) => reject(new Error(`writer exited (${how}) before ready: ${stderr}`)));
  });
  return { child, ready, exited, output: () => `${stdout}\n${stderr}` };
}

let fixture: LineageFixture;
beforeEach(async () => {
  fixture = await makeLineageFixture();
});
afterEach(() => fixture.cleanup());

describe('lineage store across processes', () => {
  it(`${WRITERS} processes writing to one new database at once all succeed`, {
    timeout: 120_000,
  }, async () => {
    const writers = Array.from({ length: WRITERS }, (_, worker) =>
      startWriter({
        rootDir: fixture.root,
        worker,
        agentId: `agent-${worker % 2}`,
        sessionKey: 'shared-session',
        threadKey: 'main',
        writes: WRITES,
      }),
    );
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.child.stdin?.end('go\n');
    const exits = await Promise.all(writers.map((writer) => writer.exited));
    expect(exits, writers.map((writer) => writer.output()).join('\n')).toEqual(
      writers.map(() => 0),
    );

    const store = fixture.open();
    for (const agentId of ['agent-0', 'agent-1']) {
      const perAgent = (WRITERS / 2) * WRITES;
      const transcript = store.getTranscript(agentId, 'shared-session', { limit: 10_000 });
      expect(transcript?.entries.map((entry) => entry.seq)).toEqual(
        Array.from({ length: perAgent }, (_, i) => i + 1),
      );
      expect(transcript?.entries.every((entry) => entry.text.startsWith('worker '))).toBe(true);
      const leaves = store.listNodes({ agentId, kinds: ['session_summary', 'compaction'] });
      expect(leaves).toHaveLength(perAgent);
      const all = store.listNodes({ agentId });
      for (const node of all) expect(store.parents(agentId, node.id).length).toBeLessThanOrEqual(1);
      const roots = store.listNodes({ agentId, roots: true });
      expect(roots.length).toBeLessThanOrEqual(8);
      const seen = reachable(store, agentId, roots);
      for (const leaf of leaves) expect(seen.has(leaf.id)).toBe(true);
    }
    const Database = loadSqlite();
    const raw = new Database(lineageDatabasePath(fixture.root), { readonly: true });
    try {
      const versions = raw.prepare('SELECT version FROM schema_migrations').all();
      expect(versions).toHaveLength(LINEAGE_SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });
});
