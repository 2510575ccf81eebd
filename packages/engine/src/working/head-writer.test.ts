import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFileBackend } from '@cairn/backend-file';
import { ensureMemoryWorkspace, memoryLongTermPath, memoryWorkspacePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceWriter } from '../store';
import { currentHeadRegion } from './head-render';
import { HeadStore } from './head-store';
import {
  GLOBAL_HEAD,
  LOCAL_HEAD,
  refreshGlobalHead,
  refreshThreadHead,
  writeUnderLease,
} from './head-writer';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  await ensureMemoryWorkspace(project.root);
});
afterEach(() => project.cleanup());
const writer = () => createWorkspaceWriter(project.root, createFileBackend());

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./head-writer.fixture.ts', import.meta.url));

function runFixture(n: number): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, project.root, String(n)], {
      cwd: repoRoot,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('head records and leases', () => {
  it('refuses a writer while another owner holds an active lease, and defers its write', async () => {
    const store = new HeadStore(project.root);
    expect(store.leases.acquire('*', 'head:MEMORY.md', 'owner-1', 60_000).ok).toBe(true);
    const outcome = await writeUnderLease(
      store,
      GLOBAL_HEAD,
      async () => ({ rendered: 'x', keptUserEdit: false }),
      {
        attempts: 2,
      },
    );
    expect(outcome).toMatchObject({ applied: false, deferred: true, holder: 'owner-1' });
    expect(store.leases.pending()).toHaveLength(1);
    store.leases.release('*', 'head:MEMORY.md', 'owner-1');
    const later = await refreshGlobalHead(writer(), store, {
      units: [],
      budgetTokens: 500,
      now: () => new Date(),
    });
    expect(later).toMatchObject({ applied: true });
    expect(store.leases.pending()).toEqual([]);
    expect(store.leases.record('*', 'head:MEMORY.md')).toMatchObject({ version: 1, owner: null });
    store.close();
  });

  it('takes over a lease whose owner died (expired)', () => {
    const store = new HeadStore(project.root);
    expect(store.leases.acquire('*', 's', 'dead', 10, 1_000).ok).toBe(true);
    expect(store.leases.acquire('*', 's', 'alive', 10, 2_000).ok).toBe(true);
    store.close();
  });

  it('sixteen processes ending sessions at once: a valid head, no lost user edit, nothing pending', {
    timeout: 120_000,
  }, async () => {
    const memory = memoryLongTermPath(project.root);
    const runs = Array.from({ length: 16 }, (_, n) => runFixture(n));
    // A user edit outside the managed region, made while the writers run.
    const text = await readFile(memory, 'utf8');
    await writeFile(
      memory,
      text.replace('## Notes', '## Notes\n\nUser line added during the storm.'),
    );
    const results = await Promise.all(runs);
    for (const result of results) expect(result.code, result.err).toBe(0);
    const final = await readFile(memory, 'utf8');
    // MEMORY.md holds the team head: one writer's approved unit, whole.
    const region = currentHeadRegion(final)!;
    expect(region.match(/Constraint of process \d+\./g)).toHaveLength(1);
    expect(final.match(/<!-- cairn:head:start -->/g)).toHaveLength(1);
    const store = new HeadStore(project.root);
    // This clone's personal head holds every thread.
    const local = store.leases.lastRendered(LOCAL_HEAD.agentId, LOCAL_HEAD.scope)!;
    for (let n = 0; n < 16; n += 1) expect(local).toContain(`\`topic-${n}\``);
    expect(store.leases.pending()).toEqual([]);
    expect(store.threads.list('agent-a')).toHaveLength(16);
    store.close();
    // The user's line survives unless their write raced a render; then it was kept, never dropped.
    expect(final).toContain('User line added during the storm.');
  });
});

describe('thread heads: leases and edits outside Cairn', () => {
  const target = { agentId: 'claude', threadKey: 'topic-billing', now: () => new Date() };
  const threadFile = () =>
    join(memoryWorkspacePath(project.root), 'threads', 'claude.topic-billing.md');

  it('refuses a thread head write while another owner holds its lease, and applies it later', async () => {
    const store = new HeadStore(project.root);
    expect(store.leases.acquire('claude', 'thread:topic-billing', 'owner-1', 60_000).ok).toBe(true);
    const refused = await refreshThreadHead(writer(), store, target, { attempts: 2 });
    expect(refused).toMatchObject({ applied: false, deferred: true, holder: 'owner-1' });
    expect(store.leases.pending()).toEqual([
      expect.objectContaining({ agentId: 'claude', scope: 'thread:topic-billing' }),
    ]);
    store.leases.release('claude', 'thread:topic-billing', 'owner-1');
    expect(await refreshThreadHead(writer(), store, target)).toMatchObject({ applied: true });
    expect(store.leases.pending()).toEqual([]);
    expect(await readFile(threadFile(), 'utf8')).toContain('# Thread topic-billing');
    store.close();
  });

  it('keeps the user text around the managed region, and an edit inside it below it', async () => {
    const store = new HeadStore(project.root);
    await refreshThreadHead(writer(), store, target);
    const rendered = await readFile(threadFile(), 'utf8');
    expect(rendered.match(/<!-- cairn:thread-head:start -->/g)).toHaveLength(1);
    await writeFile(threadFile(), `My notes on billing.\n\n${rendered}\nAsk finance on Monday.\n`);
    await refreshThreadHead(writer(), store, target);
    const merged = await readFile(threadFile(), 'utf8');
    expect(merged.startsWith('My notes on billing.\n\n<!-- cairn:thread-head:start -->')).toBe(
      true,
    );
    expect(merged).toContain('Ask finance on Monday.');
    await writeFile(threadFile(), merged.replace('(no summary yet)', 'shipped, says me'));
    const outcome = await refreshThreadHead(writer(), store, target);
    expect(outcome).toMatchObject({ applied: true, keptUserEdit: true });
    const kept = await readFile(threadFile(), 'utf8');
    expect(kept).toContain('## Thread head text edited outside Cairn (kept)');
    expect(kept).toContain('shipped, says me');
    expect(kept).toContain('My notes on billing.');
    store.close();
  });

  it('replaces a thread head written before the managed region existed', async () => {
    const store = new HeadStore(project.root);
    await refreshThreadHead(writer(), store, target);
    const region = (await readFile(threadFile(), 'utf8')).split('\n').slice(1, -2).join('\n');
    await writeFile(threadFile(), `${region}\n`);
    await refreshThreadHead(writer(), store, target);
    const after = await readFile(threadFile(), 'utf8');
    expect(after.match(/# Thread topic-billing/g)).toHaveLength(1);
    store.close();
  });
});
