import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveFixPattern, listFixPatterns } from '../history';
import { type Cairn, openCairn } from '../index';
import { openDatabase } from '../store';
import { ARCHIVE_TABLES, DATABASE_FILES } from './archive-tables';
import { exportProject } from './export-project';
import { importProject } from './import-project';

/*
 * `cairn export` / `cairn import` (docs/TEAMS.md#backup-and-restore): a
 * round trip restores every table and every file; importing twice is
 * importing once; a project with history of its own gets the archive's
 * beside it, nothing twice; a damaged archive is refused and changes nothing.
 */

let temp: TempProject;
const opened: Cairn[] = [];
beforeEach(async () => {
  temp = await makeTempProject();
});
afterEach(async () => {
  for (const cairn of opened.splice(0)) cairn.closeWorking();
  await temp.cleanup();
});

async function cairnAt(root: string): Promise<Cairn> {
  let clock = Date.parse('2026-04-01T09:00:00.000Z');
  const cairn = await openCairn(root, {
    env: {},
    homeDir: join(temp.root, 'home'),
    overrides: { timezone: 'UTC' },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  opened.push(cairn);
  return cairn;
}

async function project(name: string): Promise<{ root: string; cairn: Cairn }> {
  const root = join(temp.root, name);
  await mkdir(root, { recursive: true });
  const cairn = await cairnAt(root);
  await cairn.init();
  return { root, cairn };
}

const failing = (root: string) =>
  `Error: Cannot find module './lib/greet'\nRequire stack:\n- ${root}/main.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15) {\n  code: 'MODULE_NOT_FOUND'\n}`;

/** Sessions of every kind: prompts, a long tool output, a failure and its fix, a compaction. */
async function workIn(
  cairn: Cairn,
  root: string,
  agentId: string,
  key: string,
  fixFile = 'lib/greet.js',
) {
  const ids = { agentId, sessionKey: key, cwd: root };
  await cairn.lifecycle.sessionStart({ ...ids, harness: 'claude-code' });
  await cairn.lifecycle.userPromptSubmit({
    ...ids,
    prompt: `We decided to index the kestrel logs (${key}).`,
  });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Read',
    input: { file: 'a' },
    output: 'log line\n'.repeat(400),
  });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command: 'node main.js' },
    output: { stderr: failing(root) },
  });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Write',
    input: { file_path: join(root, fixFile) },
    output: 'ok',
  });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command: 'node main.js' },
    output: { stdout: 'hello' },
  });
  await cairn.lifecycle.compactionComplete({
    ...ids,
    summary: `Compacted ${key}: the logs are indexed.`,
  });
  await cairn.lifecycle.sessionEnd({ ...ids, reason: 'exit' });
}

async function richProject(name: string) {
  const { root, cairn } = await project(name);
  await cairn.add({ text: 'The kestrel cluster is the staging cluster.', category: 'fact' });
  await cairn.add({ text: 'Use pnpm, never npm.', category: 'decision' });
  await writeFile(
    join(root, '.cairn/config.json'),
    '{ "memory": { "contextBudgetTokens": 1800 } }\n',
  );
  await workIn(cairn, root, 'claude-code', 'one');
  await workIn(cairn, root, 'codex', 'two');
  approveFixPattern(root, listFixPatterns(root)[0]!.id);
  await cairn.syncSharedFixes();
  cairn.closeWorking();
  return { root, cairn };
}

/** Every row of every table of the state databases, the full-text index's per-entry sizes included. */
function tables(root: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const file of Object.values(DATABASE_FILES)) {
    const path = join(cairnStatePath(root), file);
    if (!existsSync(path)) continue;
    const db = openDatabase(path);
    try {
      const names = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all() as string[];
      for (const name of names) {
        // When each migration ran is the database's, not the project's; FTS5's segments are its layout.
        if (name === 'schema_migrations' || /_fts(_data|_idx|_config)?$/.test(name)) continue;
        out[`${file}.${name}`] = db.prepare(`SELECT * FROM ${name} ORDER BY 1, 2`).all();
      }
    } finally {
      db.close();
    }
  }
  return out;
}

/** The project's files under `.cairn/`, but the state and indexes (compared as tables, or derived). */
async function files(root: string) {
  const tree = await snapshotTree(join(root, '.cairn'));
  return Object.fromEntries(
    Object.entries(tree).filter(([path]) => !path.startsWith('state') && !path.startsWith('index')),
  );
}

const exportTo = (root: string, out: string) => exportProject(root, out, { version: 'test' });
const importInto = (cairn: Cairn, archive: string) =>
  importProject(cairn.rootDir, archive, cairn.writer);

describe('cairn export and import', () => {
  it('restores every table and every file of a project into an empty one, and twice is once', async () => {
    const source = await richProject('source');
    const archive = join(temp.root, 'backup.jsonl.gz');
    const exported = await exportTo(source.root, archive);
    expect(exported.rows['lineage.transcript_entries']).toBeGreaterThanOrEqual(10);
    expect(exported.rows['heads.pack_receipts']).toBeGreaterThan(0);
    expect(exported.rows['history.patterns']).toBe(1);
    const target = join(temp.root, 'elsewhere');
    await mkdir(target);
    const restored = await cairnAt(target);
    const first = await importInto(restored, archive);
    expect(first.files.kept).toEqual([]);
    expect(first.files.written).toEqual(
      expect.arrayContaining(['.cairn/config.json', '.cairn/memory/MEMORY.md']),
    );
    expect(first.files.written.some((path) => path.startsWith('.cairn/memory/fixes/'))).toBe(true);
    expect(tables(target)).toEqual(tables(source.root));
    expect(await files(target)).toEqual(await files(source.root));

    const again = await importInto(restored, archive);
    expect(Object.values(again.rows).every((stats) => stats.inserted === 0)).toBe(true);
    expect(again.files.written).toEqual([]);
    expect(tables(target)).toEqual(tables(source.root));

    // What the project answers is the same: units, lineage search, drill-down, patterns.
    const before = await cairnAt(source.root);
    const query = { query: 'kestrel logs', limit: 5 };
    expect(await restored.search(query)).toEqual(await before.search(query));
    const node = before.threads('codex')[0]!.lineage[0]!;
    expect(restored.expand(node, 'codex')).toEqual(before.expand(node, 'codex'));
    expect(listFixPatterns(target)).toEqual(listFixPatterns(source.root));
  });

  it('adds an archive to a project with history of its own, nothing twice, its ids moved', async () => {
    const source = await richProject('source');
    const archive = join(temp.root, 'backup.jsonl.gz');
    await exportTo(source.root, archive);
    const { root, cairn } = await project('busy');
    await workIn(cairn, root, 'claude-code', 'local');
    cairn.closeWorking();
    const mine = tables(root);
    const theirs = tables(source.root);
    const merged = await importInto(cairn, archive);
    expect(merged.files.kept).toContain('.cairn/memory/MEMORY.md');
    const after = tables(root);
    for (const name of [
      'lineage.db.transcripts',
      'lineage.db.transcript_entries',
      'lineage.db.temporal_nodes',
      'history.db.failures',
      'heads.db.sessions',
    ]) {
      expect(after[name]!.length, name).toBe(mine[name]!.length + theirs[name]!.length);
    }
    // One pattern: the same signature and steps in both projects is one pattern, with both runs.
    expect(after['history.db.patterns']!.length).toBe(1);
    const runs = after['history.db.pattern_runs'] as { pattern_id: string }[];
    expect(new Set(runs.map((run) => run.pattern_id)).size).toBe(1);
    expect(runs.length).toBe(
      mine['history.db.pattern_runs']!.length + theirs['history.db.pattern_runs']!.length,
    );
    // The archive's failures point at its transcripts, which moved past this project's.
    const failures = after['history.db.failures'] as { event_id: string; session_key: string }[];
    const transcripts = after['lineage.db.transcripts'] as { id: number; session_key: string }[];
    for (const failure of failures) {
      const tid = Number(/^T:(\d+):/.exec(failure.event_id)![1]);
      expect(transcripts.find((t) => t.id === tid)?.session_key).toBe(failure.session_key);
    }
    // Imported twice: once.
    await importInto(cairn, archive);
    expect(tables(root)).toEqual(after);
    const reopened = await cairnAt(root);
    expect(reopened.threads('codex')[0]!.lineage.length).toBeGreaterThan(0);
    expect(
      reopened.expand(reopened.threads('codex')[0]!.lineage[0]!, 'codex').node.kind,
    ).toBeDefined();
  });

  it('keeps a fix of the same error and step keys that edited another file as a pattern of its own', async () => {
    const source = await richProject('source');
    const archive = join(temp.root, 'backup.jsonl.gz');
    await exportTo(source.root, archive);
    const { root, cairn } = await project('other-fix');
    await workIn(cairn, root, 'claude-code', 'local', 'lib/greet/index.js');
    cairn.closeWorking();
    const [theirs] = listFixPatterns(source.root);
    const [mine] = listFixPatterns(root);
    expect(mine!.stepsKey).toBe(theirs!.stepsKey);
    await importInto(cairn, archive);
    const patterns = listFixPatterns(root);
    expect(patterns.map((p) => p.signature)).toEqual([theirs!.signature, theirs!.signature]);
    expect(new Set(patterns.map((p) => p.id))).toEqual(new Set([mine!.id, theirs!.id]));
  });

  it('refuses a damaged, cut, altered or foreign archive and changes nothing', async () => {
    const source = await richProject('source');
    const archive = join(temp.root, 'backup.jsonl.gz');
    await exportTo(source.root, archive);
    const { cairn } = await project('target');
    const good = await readFile(archive);
    const lines = gunzipSync(good).toString('utf8').split('\n');
    const variants: Record<string, Buffer> = {
      'not gzip': Buffer.from('{"format":"cairn-export"}\n'),
      'cut short': good.subarray(0, Math.floor(good.length / 2)),
      'no trailer': gzipSync(lines.slice(0, -2).join('\n')),
      // A transcript row's words (a unit's file is stored encoded; session start no longer
      // injects the newest units, so no receipt quotes one in plain text).
      'an edited line': gzipSync(lines.join('\n').replace('kestrel logs', 'falcon logs')),
      'a path out of the workspace': gzipSync(
        [
          lines[0],
          JSON.stringify({ type: 'file', path: '.cairn/memory/../../escape.md', data: '' }),
          ...lines.slice(1),
        ].join('\n'),
      ),
      'a foreign header': gzipSync(`${JSON.stringify({ format: 'tarball', version: 1 })}\n`),
    };
    for (const [what, bytes] of Object.entries(variants)) {
      const path = join(temp.root, 'bad.gz');
      await writeFile(path, bytes);
      const before = await snapshotTree(temp.root);
      const error = await importInto(cairn, path).catch((e: unknown) => e);
      expect((error as { code?: string }).code, what).toBe('INVALID_INPUT');
      expect(String((error as Error).message), what).toContain('Refused the archive');
      expect(await snapshotTree(temp.root), what).toEqual(before);
    }
    const newer = gzipSync(lines.join('\n').replace(/"lineage":\d+/, '"lineage":9999'));
    await writeFile(join(temp.root, 'newer.gz'), newer);
    await expect(importInto(cairn, join(temp.root, 'newer.gz'))).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });

  it('carries every table of the state databases, or rebuilds it (a new table must be listed)', async () => {
    const { root } = await richProject('source');
    const rebuilt = new Set([
      'lineage.node_roots',
      'lineage.schema_migrations',
      'heads.thread_sessions',
    ]);
    for (const [name, file] of Object.entries(DATABASE_FILES) as [
      keyof typeof DATABASE_FILES,
      string,
    ][]) {
      const db = openDatabase(join(cairnStatePath(root), file));
      try {
        const names = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%_fts%'")
          .pluck()
          .all() as string[];
        const carried = ARCHIVE_TABLES[name].map((spec) => spec.table);
        for (const table of names) {
          expect(
            carried.includes(table) || rebuilt.has(`${name}.${table}`),
            `${name}.${table}`,
          ).toBe(true);
        }
      } finally {
        db.close();
      }
    }
  });

  it('refuses to write over a file, and to export what is not a project', async () => {
    const { root } = await project('p');
    await writeFile(join(temp.root, 'taken.gz'), 'mine');
    await expect(exportTo(root, join(temp.root, 'taken.gz'))).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await readFile(join(temp.root, 'taken.gz'), 'utf8')).toBe('mine');
    await expect(
      exportTo(join(temp.root, 'nothing'), join(temp.root, 'x.gz')),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
