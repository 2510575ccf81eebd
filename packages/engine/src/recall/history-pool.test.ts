import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerIndex } from '../backend-registrations';
import { approveFixPattern, getFixPattern, historyDatabasePath, listFixPatterns } from '../history';
import { type Cairn, openCairn } from '../index';
import { retrieveContextPack } from '../packs';
import { probeRegistration } from './probe-index.fixture';

// An index that does not store records (as qmd): the history pool goes to the local file index.
registerIndex(probeRegistration());

let project: TempProject;
const opened: Cairn[] = [];

/** A project opened in a namespace, with a clock that moves one second per reading. */
async function open(namespace?: string, overrides: Record<string, unknown> = {}): Promise<Cairn> {
  let clock = Date.parse('2026-05-01T09:00:00.000Z') + opened.length * 3_600_000;
  const cairn = await openCairn(project.root, {
    env: namespace ? { CAIRN_MEMORY_NAMESPACE: namespace } : {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC', ...overrides },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  opened.push(cairn);
  return cairn;
}

beforeEach(async () => {
  project = await makeTempProject();
  await (await open()).init();
});
afterEach(async () => {
  for (const cairn of opened.splice(0)) {
    await cairn.recall({ agentId: 'x', query: '', tiers: ['hot'] }).catch(() => []);
    cairn.closeWorking();
  }
  await project.cleanup();
});

const LOCKFILE =
  'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with /home/u/app/package.json';
const MISSING = "Error: Cannot find module './lib/otterlamp'\n  code: 'MODULE_NOT_FOUND',\n";

/** One session: a failing command, then (resolve) the same family succeeding, then its end. */
async function run(cairn: Cairn, sessionKey: string, error: 'lockfile' | 'module') {
  const ids = { agentId: 'claude', sessionKey };
  const command = error === 'lockfile' ? 'pnpm install --frozen-lockfile' : 'node main.js';
  const stderr = error === 'lockfile' ? LOCKFILE : MISSING;
  await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root, threadKey: 'app.main' });
  await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: `Fix the ${error} quokkaflare build` });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command },
    output: { stdout: '', stderr },
  });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command: error === 'lockfile' ? 'pnpm install --no-frozen-lockfile' : 'node main.js' },
    output: { stdout: 'ok', stderr: '' },
  });
  await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
}

const warmQuery = {
  agentId: 'claude',
  query: 'quokkaflare ERR_PNPM_OUTDATED_LOCKFILE lockfile',
  tiers: ['warm' as const],
  limit: 20,
};

describe('the history pool (seed 004 §6.2 records through recall)', () => {
  it('recalls a fix pattern and a run digest with record_kind, trust_class, namespace, repo and run_ref', async () => {
    const cairn = await open();
    await run(cairn, 'r1', 'lockfile');
    const [pattern] = listFixPatterns(project.root);
    expect(pattern?.state).toBe('candidate');
    const patterns = await cairn.recall({ ...warmQuery, filters: { record_kind: 'fix_pattern' } });
    // A record may be several chunks (its sections); every chunk carries the record's fields.
    expect([...new Set(patterns.map((r) => r.metadata?.path))]).toEqual([
      `history/fix-patterns/${pattern!.id}.md`,
    ]);
    expect(patterns[0]?.metadata).toMatchObject({
      poolId: 'history',
      tier: 'warm',
      record_kind: 'fix_pattern',
      trust_class: 'derived',
      namespace_id: 'default',
      repo: expect.any(String),
      'run_ref.kind': 'run',
      'run_ref.id': 'r1',
    });
    const digests = await cairn.recall({ ...warmQuery, filters: { record_kind: 'run_digest' } });
    expect([...new Set(digests.map((r) => r.metadata?.path))]).toEqual([
      'history/run-digests/claude/r1.md',
    ]);
    expect(digests[0]?.metadata).toMatchObject({ trust_class: 'derived', 'run_ref.id': 'r1' });
    // Markdown chunks are filtered out by a record kind, and answer to their own.
    const docs = await cairn.recall({
      ...warmQuery,
      tiers: ['hot', 'warm'],
      filters: { record_kind: 'doc' },
    });
    expect(docs.every((r) => r.metadata?.record_kind === 'doc')).toBe(true);

    // Approval moves the record's mtime: the next recall re-reads it as approved.
    approveFixPattern(project.root, pattern!.id);
    const approved = await cairn.recall({ ...warmQuery, filters: { record_kind: 'fix_pattern' } });
    expect(approved[0]?.metadata?.trust_class).toBe('approved');
    expect(cairn.warnings).toEqual([]);
  });

  it('with memory.history off (seed 004 §8 MEMORY_HISTORY=off), recall has no history pool', async () => {
    await run(await open(), 'r1', 'lockfile');
    const off = await open(undefined, { memory: { history: 'off' } });
    const records = await off.recall({
      ...warmQuery,
      filters: { record_kind: ['fix_pattern', 'run_digest'] },
    });
    expect(records).toEqual([]);
    const on = await (await open()).recall({
      ...warmQuery,
      filters: { record_kind: ['fix_pattern', 'run_digest'] },
    });
    expect(on.length).toBeGreaterThan(0);
  });

  it('a hot recall (the prompt hook asks only the hot tier) never opens history.db', async () => {
    const cairn = await open();
    await run(cairn, 'r1', 'lockfile');
    // history.db replaced by a folder: opening it fails, and the pool says so when it is asked.
    await rm(historyDatabasePath(project.root), { force: true });
    await rm(`${historyDatabasePath(project.root)}-wal`, { force: true });
    await rm(`${historyDatabasePath(project.root)}-shm`, { force: true });
    await mkdir(historyDatabasePath(project.root));
    const fresh = await open();
    const hot = await fresh.recall({ ...warmQuery, query: 'quokkaflare lockfile', tiers: ['hot'] });
    expect(hot.every((r) => r.metadata?.tier === 'hot')).toBe(true);
    const units = await fresh.search({ query: 'quokkaflare lockfile', tiers: ['hot'] });
    expect(units).toBeDefined();
    expect(fresh.warnings.filter((w) => w.includes('history pool'))).toEqual([]);
    await fresh.recall(warmQuery);
    expect(fresh.warnings.some((w) => w.includes('history pool could not list'))).toBe(true);
  });

  it('with an index that stores no records (qmd), the local file index carries the pool', async () => {
    await run(await open(), 'r1', 'lockfile');
    const cairn = await open(undefined, { memoryBackendType: 'file', retrievalAdapter: 'probe' });
    const found = await cairn.recall({ ...warmQuery, filters: { record_kind: 'fix_pattern' } });
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]?.metadata).toMatchObject({ poolId: 'history', trust_class: 'derived' });
    const status = (await cairn.status()).retrievalAdapter.status;
    const pools = (status?.details?.enginePools ?? []) as { id: string; indexedBy?: string }[];
    expect(pools.find((pool) => pool.id === 'history')).toMatchObject({ indexedBy: 'file' });
  });

  it('creates no history.db or lineage.db for a warm recall of a project without history', async () => {
    const cairn = await open();
    expect(await cairn.recall(warmQuery)).toEqual([]);
    expect(existsSync(historyDatabasePath(project.root))).toBe(false);
    expect(existsSync(join(cairnStatePath(project.root), 'lineage.db'))).toBe(false);
  });
});

describe('memory.namespace: two namespaces of one project never see each other', () => {
  it('keeps failures, patterns, digests, the pack and recall apart', async () => {
    const teamA = await open('team-a');
    await run(teamA, 'a1', 'lockfile');
    const teamB = await open('team-b');
    await run(teamB, 'b1', 'module');
    const [a] = listFixPatterns(project.root, { namespace: 'team-a' });
    const [b] = listFixPatterns(project.root, { namespace: 'team-b' });
    expect(a?.namespace).toBe('team-a');
    expect(b?.namespace).toBe('team-b');
    expect(listFixPatterns(project.root, { namespace: 'team-a' }).map((p) => p.id)).toEqual([
      a!.id,
    ]);
    expect(listFixPatterns(project.root)).toEqual([]);
    expect(() => getFixPattern(project.root, b!.id, { namespace: 'team-a' })).toThrow(
      /No fix pattern/,
    );
    expect(() => approveFixPattern(project.root, b!.id, { namespace: 'team-a' })).toThrow(
      /No fix pattern/,
    );

    const pack = async (cairn: Cairn) =>
      retrieveContextPack(
        {
          // A pack holds what is relevant to its query: the lockfile failure's words.
          query: 'quokkaflare pnpm install lockfile',
          agentId: 'claude',
          threadKey: 'app.main',
          planes: ['history'],
        },
        {
          rootDir: project.root,
          settings: cairn.settings,
          search: (request) => cairn.search(request),
        },
      );
    const packA = await pack(teamA);
    const ids = packA.items.map((item) => item.id);
    expect(ids).toContain(`pattern:${a!.id}`);
    expect(ids).not.toContain(`pattern:${b!.id}`);
    const runs = packA.items.filter((i) => i.provenance.kind === 'run').map((i) => i.provenance.id);
    expect(runs).not.toContain('b1');

    const recalled = async (cairn: Cairn) =>
      (await cairn.recall({ ...warmQuery, query: 'quokkaflare build lockfile otterlamp module' }))
        .filter((r) => r.metadata?.poolId === 'history')
        .map((r) => `${r.metadata?.namespace_id} ${r.metadata?.['run_ref.id']}`);
    expect(new Set(await recalled(teamA))).toEqual(new Set(['team-a a1']));
    expect(new Set(await recalled(teamB))).toEqual(new Set(['team-b b1']));
  });
});
