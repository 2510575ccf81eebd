import { resolveSettings } from '@cairn/core';
import { makeTempProject } from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDue, isDueCheap, nextDueAt, planState, writeScheduleState } from './schedule';

const settingsWith = (overrides: Record<string, unknown>) =>
  resolveSettings({
    projectRoot: '/nowhere',
    env: {},
    homeDir: '/nowhere/home',
    overrides: { timezone: 'UTC', ...overrides },
  }).settings;

const at = (iso: string) => new Date(iso);

describe('the insight extraction schedule (fake clock)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('is due at the first cron time after the last run', async () => {
    const settings = settingsWith({});
    const due = await nextDueAt(settings, at('2026-03-01T02:00:00Z'), at('2026-03-01T02:00:00Z'));
    expect(due.toISOString()).toBe('2026-03-02T02:00:00.000Z');
  });

  it('waits for the minimum interval when the schedule fires earlier', async () => {
    // Hourly schedule, 36 h minimum: the hour after the run has passed, the interval has not.
    const settings = settingsWith({
      insightExtractionSchedule: '0 * * * *',
      insightExtractionMinIntervalMs: 36 * 3_600_000,
    });
    const due = await nextDueAt(settings, at('2026-03-01T02:00:00Z'), at('2026-03-01T02:00:00Z'));
    expect(due.toISOString()).toBe('2026-03-02T14:00:00.000Z');
  });

  it('waits for the schedule when the minimum interval has passed first', async () => {
    const settings = settingsWith({ insightExtractionMinIntervalMs: 60_000 });
    const due = await nextDueAt(settings, at('2026-03-01T02:30:00Z'), at('2026-03-01T02:30:00Z'));
    expect(due.toISOString()).toBe('2026-03-02T02:00:00.000Z');
  });

  it('reads the schedule in the project time zone', async () => {
    const settings = settingsWith({ timezone: 'Europe/Paris' });
    const due = await nextDueAt(settings, null, at('2026-03-01T12:00:00Z'));
    expect(due.toISOString()).toBe('2026-03-02T01:00:00.000Z');
  });

  it('is never due while insightExtractionEnabled is false, and plans the first run when switched on', async () => {
    const project = await makeTempProject();
    cleanups.push(() => project.cleanup());
    const off = settingsWith({});
    expect(isDueCheap(project.root, off, at('2030-01-01T00:00:00Z'))).toBe(false);
    const on = settingsWith({ insightExtractionEnabled: true });
    // Nothing planned yet: the cheap check asks the background run to look.
    expect(isDueCheap(project.root, on, at('2026-03-01T12:00:00Z'))).toBe(true);
    const first = await checkDue(project.root, on, at('2026-03-01T12:00:00Z'));
    expect(first).toMatchObject({ due: false, state: { nextDueAt: '2026-03-02T02:00:00.000Z' } });
    expect(isDueCheap(project.root, on, at('2026-03-02T01:59:59Z'))).toBe(false);
    expect(isDueCheap(project.root, on, at('2026-03-02T02:00:00Z'))).toBe(true);
    expect((await checkDue(project.root, on, at('2026-03-02T02:00:01Z'))).due).toBe(true);
  });

  it('re-plans when the schedule changes, keeping the last run', async () => {
    const project = await makeTempProject();
    cleanups.push(() => project.cleanup());
    const daily = settingsWith({ insightExtractionEnabled: true });
    await writeScheduleState(
      project.root,
      await planState(daily, at('2026-03-01T02:00:00Z'), at('2026-03-01T02:00:00Z')),
    );
    const weekly = settingsWith({
      insightExtractionEnabled: true,
      insightExtractionSchedule: '0 3 * * 1',
    });
    expect(isDueCheap(project.root, weekly, at('2026-03-01T03:00:00Z'))).toBe(true);
    const { due, state } = await checkDue(project.root, weekly, at('2026-03-01T03:00:00Z'));
    expect(due).toBe(false);
    // 2026-03-02 is a Monday.
    expect(state).toMatchObject({
      lastRunAt: '2026-03-01T02:00:00.000Z',
      nextDueAt: '2026-03-02T03:00:00.000Z',
    });
  });

  it('refuses a schedule croner cannot parse with INVALID_CONFIG', async () => {
    const settings = settingsWith({ insightExtractionSchedule: '61 2 * * *' });
    await expect(nextDueAt(settings, null, at('2026-03-01T00:00:00Z'))).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
  });
});
