import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openLineageStore } from '../lineage';
import { retrieveContextPack } from './retrieve-context-pack';

/**
 * Seed 004 §1 isolation at the pack: two projects whose folders share a
 * name and whose LanceDB indexes share one database folder (a table each),
 * one agent and two threads in each. A pack holds only its project's units
 * and its thread's history; the other thread is named in the receipt
 * (`other-thread`), never included.
 */
let temp: TempProject;
const cairns: Cairn[] = [];
const at = '2026-05-01T08:00:00.000Z';

async function project(dir: string, table: string): Promise<Cairn> {
  const root = join(temp.root, dir, 'app');
  await mkdir(root, { recursive: true });
  const cairn = await openCairn(root, {
    env: {},
    homeDir: join(temp.root, 'home'),
    overrides: {
      memoryBackendType: 'lancedb',
      memoryBackendOptions: { uri: join(temp.root, 'shared-lancedb'), tableName: table },
    },
  });
  cairns.push(cairn);
  await cairn.init();
  return cairn;
}

function history(cairn: Cairn, threadKey: string, text: string): string {
  const store = openLineageStore(cairn.rootDir);
  try {
    return store.addNode({
      agentId: 'claude',
      kind: 'session_summary',
      threadKey,
      sessionKey: `s-${threadKey}`,
      startAt: at,
      endAt: at,
      source: 'extractive',
      text,
    }).id;
  } finally {
    store.close();
  }
}

const pack = (cairn: Cairn, threadKey: string) =>
  retrieveContextPack(
    { query: 'wombat scheduler deploy', agentId: 'claude', threadKey, budgetTokens: 4000 },
    {
      rootDir: cairn.rootDir,
      settings: cairn.settings,
      search: cairn.search,
      env: { PATH: '' },
      // Isolation, not speed: LanceDB's first open can pass the 2 s plane budget on a loaded machine.
      planeTimeoutMs: 60_000,
    },
  );

beforeEach(async () => {
  temp = await makeTempProject();
});
afterEach(async () => {
  for (const cairn of cairns.splice(0)) cairn.closeWorking();
  await temp.cleanup();
});

describe('pack isolation', () => {
  it('holds only this repository’s items and this thread’s history', async () => {
    const a = await project('one', 'app_one');
    const b = await project('two', 'app_two');
    await a.add({ text: 'The wombat scheduler deploy runs hourly in project one.' });
    await b.add({ text: 'The wombat scheduler deploy runs daily in project two.' });
    const mine = history(a, 'main', 'Wombat scheduler deploy fixed in thread main of one.');
    const otherThread = history(a, 'side', 'Wombat scheduler deploy notes from thread side.');
    const otherRepo = history(b, 'main', 'Wombat scheduler deploy work in project two.');

    expect(b.backend.type).toBe('lancedb');
    const fromA = await pack(a, 'main');
    const texts = fromA.items.map((item) => item.text).join('\n');
    expect(texts).toContain('project one');
    expect(texts).not.toContain('project two');
    expect(texts).not.toContain('thread side');
    expect(fromA.items.map((item) => item.id)).toContain(mine);
    expect(fromA.items.map((item) => item.id)).not.toContain(otherRepo);
    expect(fromA.excluded).toContainEqual(
      expect.objectContaining({ id: otherThread, reason: 'other-thread' }),
    );
    expect(fromA.excluded.map((e) => e.id)).not.toContain(otherRepo);

    const fromB = await pack(b, 'main');
    const textsB = fromB.items.map((item) => item.text).join('\n');
    expect(textsB).toContain('project two');
    expect(textsB).not.toContain('project one');
  });
});
