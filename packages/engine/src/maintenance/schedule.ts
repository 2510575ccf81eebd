import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CairnError,
  type CairnSettings,
  cairnStatePath,
  LOCAL_TIME_ZONE,
  makeDirectory,
  writeFileAtomic,
} from '@cairn/core';

/**
 * When insight extraction is due (seed 000 §1.4): the cron schedule
 * (`insightExtractionSchedule`, in the project's time zone) has fired since
 * the last run, and `insightExtractionMinIntervalMs` has passed since it.
 * The first check after the setting is switched on plans the first run
 * (the schedule's next time) and runs nothing.
 *
 * The hook path only reads `schedule.json` (`isDueCheap`: one small
 * synchronous read, no cron library); the exact check, which loads croner,
 * runs in the background process or `cairn insights run`.
 */

export interface ScheduleState {
  /** When the last run finished, or null before the first. */
  lastRunAt: string | null;
  /** The time the next run is due, computed from the two settings below. */
  nextDueAt: string;
  schedule: string;
  timezone: string;
  minIntervalMs: number;
}

const STATE_FILE = 'maintenance-schedule.json';

export function scheduleStatePath(rootDir: string): string {
  return join(cairnStatePath(rootDir), STATE_FILE);
}

export function readScheduleState(rootDir: string): ScheduleState | undefined {
  try {
    const parsed = JSON.parse(readFileSync(scheduleStatePath(rootDir), 'utf8')) as ScheduleState;
    return typeof parsed.nextDueAt === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function writeScheduleState(rootDir: string, state: ScheduleState): Promise<void> {
  await makeDirectory(cairnStatePath(rootDir));
  await writeFileAtomic(scheduleStatePath(rootDir), `${JSON.stringify(state, null, 2)}\n`);
}

const planned = (state: ScheduleState, settings: CairnSettings) =>
  state.schedule === settings.insightExtractionSchedule &&
  state.minIntervalMs === settings.insightExtractionMinIntervalMs &&
  state.timezone === settings.timezone;

/**
 * The hook path's check: true when a background run should look (a due
 * time passed, or nothing is planned for these settings yet). False
 * whenever `insightExtractionEnabled` is off: that setting's one effect.
 */
export function isDueCheap(rootDir: string, settings: CairnSettings, now: Date): boolean {
  if (!settings.insightExtractionEnabled) return false;
  const state = readScheduleState(rootDir);
  if (!state || !planned(state, settings)) return true;
  return now.getTime() >= Date.parse(state.nextDueAt);
}

type CronClass = typeof import('croner').Cron;

let cronClass: CronClass | undefined;
async function loadCron(): Promise<CronClass> {
  cronClass ??= (await import('croner')).Cron;
  return cronClass;
}

/** The schedule's next time after `after`, in the project's time zone; INVALID_CONFIG when it does not parse. */
export async function nextCronTime(
  schedule: string,
  timezone: string,
  after: Date,
): Promise<Date | undefined> {
  const Cron = await loadCron();
  try {
    const options = timezone === LOCAL_TIME_ZONE ? { paused: true } : { paused: true, timezone };
    return new Cron(schedule, options).nextRun(after) ?? undefined;
  } catch (error) {
    throw new CairnError(
      'INVALID_CONFIG',
      `insightExtractionSchedule ${JSON.stringify(schedule)} is not a cron schedule: ${(error as Error).message}`,
      { hint: 'use five fields, minute hour day month weekday, such as "0 2 * * *"' },
    );
  }
}

/**
 * When the run after `lastRunAt` is due: the schedule's first time after
 * it, and no earlier than `minIntervalMs` after it. Before any run, the
 * schedule's next time after `since`.
 */
export async function nextDueAt(
  settings: Pick<
    CairnSettings,
    'insightExtractionSchedule' | 'insightExtractionMinIntervalMs' | 'timezone'
  >,
  lastRunAt: Date | null,
  since: Date,
): Promise<Date> {
  const from = lastRunAt ?? since;
  const cron = await nextCronTime(settings.insightExtractionSchedule, settings.timezone, from);
  // A schedule that never fires again (a date in the past): nothing is due, ever.
  const fires = cron?.getTime() ?? Number.POSITIVE_INFINITY;
  const earliest = lastRunAt ? lastRunAt.getTime() + settings.insightExtractionMinIntervalMs : 0;
  const due = Math.max(fires, earliest);
  return new Date(Number.isFinite(due) ? due : 8.64e15);
}

/** The exact check, with the plan written when missing or made for other settings. */
export async function checkDue(
  rootDir: string,
  settings: CairnSettings,
  now: Date,
): Promise<{ due: boolean; state: ScheduleState }> {
  const current = readScheduleState(rootDir);
  if (current && planned(current, settings)) {
    return { due: now.getTime() >= Date.parse(current.nextDueAt), state: current };
  }
  const lastRunAt = current?.lastRunAt ? new Date(current.lastRunAt) : null;
  const state = await planState(settings, lastRunAt, now);
  await writeScheduleState(rootDir, state);
  // Re-planned for new settings after a run: due when the new plan says so. Never run: plan only.
  return { due: lastRunAt !== null && now.getTime() >= Date.parse(state.nextDueAt), state };
}

export async function planState(
  settings: CairnSettings,
  lastRunAt: Date | null,
  now: Date,
): Promise<ScheduleState> {
  return {
    lastRunAt: lastRunAt?.toISOString() ?? null,
    nextDueAt: (await nextDueAt(settings, lastRunAt, now)).toISOString(),
    schedule: settings.insightExtractionSchedule,
    timezone: settings.timezone,
    minIntervalMs: settings.insightExtractionMinIntervalMs,
  };
}
