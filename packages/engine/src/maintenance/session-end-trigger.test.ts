import { existsSync, watch } from 'node:fs';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { readScheduleState, writeScheduleState } from './schedule';

let project: TempProject;
let cairn: Cairn | undefined;
afterEach(async () => {
  cairn?.closeWorking();
  await project.cleanup();
});

const ids = { agentId: 'codex', sessionKey: 's-1' };
const at = (iso: string) => () => new Date(iso);

async function endSession(target: Cairn) {
  await target.lifecycle.sessionStart({ ...ids, cwd: project.root });
  await target.lifecycle.sessionEnd({ ...ids });
}

/** Resolves once `holds()` is true, checked on each change in `folder` (a watch; no sleep). */
function until(folder: string, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(folder, () => {
      if (holds()) {
        watcher.close();
        resolve();
      }
    });
    if (holds()) {
      watcher.close();
      resolve();
    }
  });
}

describe('the session-end check of insight extraction', () => {
  it('asks for a run only while enabled and due', async () => {
    project = await makeTempProject();
    const scheduled: string[] = [];
    const open = (enabled: boolean, now: string) =>
      openCairn(project.root, {
        env: {},
        homeDir: join(project.root, 'home'),
        overrides: { timezone: 'UTC', insightExtractionEnabled: enabled },
        now: at(now),
        scheduleMaintenance: (root) => scheduled.push(root),
      });
    cairn = await open(false, '2026-03-01T12:00:00Z');
    await cairn.init();
    await endSession(cairn);
    expect(scheduled).toEqual([]);
    cairn.closeWorking();
    cairn = await open(true, '2026-03-01T12:00:00Z');
    await writeScheduleState(project.root, {
      lastRunAt: '2026-03-01T02:00:00.000Z',
      nextDueAt: '2026-03-02T02:00:00.000Z',
      schedule: '0 2 * * *',
      timezone: 'UTC',
      minIntervalMs: 86_400_000,
    });
    await endSession(cairn);
    expect(scheduled).toEqual([]);
    cairn.closeWorking();
    cairn = await open(true, '2026-03-02T02:00:00Z');
    await endSession(cairn);
    expect(scheduled).toEqual([project.root]);
  });

  it('by default runs a due extraction in the background of the process', async () => {
    project = await makeTempProject();
    cairn = await openCairn(project.root, {
      env: {},
      homeDir: join(project.root, 'home'),
      overrides: { timezone: 'UTC', insightExtractionEnabled: true },
    });
    await cairn.init();
    await writeScheduleState(project.root, {
      lastRunAt: '2026-03-01T02:00:00.000Z',
      nextDueAt: '2026-03-02T02:00:00.000Z',
      schedule: '0 2 * * *',
      timezone: 'UTC',
      minIntervalMs: 86_400_000,
    });
    const planned = until(
      join(project.root, '.cairn', 'state'),
      () => readScheduleState(project.root)?.lastRunAt !== '2026-03-01T02:00:00.000Z',
    );
    await endSession(cairn);
    await planned;
    expect(existsSync(join(project.root, '.cairn', 'memory', 'memory-audit.md'))).toBe(true);
    expect(readScheduleState(project.root)!.nextDueAt > new Date().toISOString()).toBe(true);
  });
});
