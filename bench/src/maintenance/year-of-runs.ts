import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCairn, openMaintenance } from '@cairn/engine';
import {
  AUDIT_MAX_BYTES,
  DREAMS_MAX_BYTES,
  INSIGHTS_MAX_BYTES,
  type ProposalKind,
} from '@cairn/engine/internals';

/**
 * One extraction run on the lived-in project (time, memory, proposals by
 * kind), then a year of daily runs on a fake clock: each day adds a few
 * units (some restating older ones, some contradicting them) and nothing
 * is ever decided, the worst case for the files' growth. The sizes of
 * MEMORY.md's managed region, memory-insights.md, memory-audit.md and
 * DREAMS.md's managed regions are read after every run; the largest must
 * stay within the budgets.
 */

export interface MaintenanceRunFigures {
  units: number;
  ms: number;
  /** Heap growth during the run (MB), and the process RSS after it. */
  heapMb: number;
  rssMb: number;
  proposed: Partial<Record<ProposalKind, number>>;
}

export interface YearFigures {
  runs: number;
  unitsAdded: number;
  msPerRun: { median: number; max: number };
  largest: { head: number; insights: number; audit: number; dreams: number };
  final: { head: number; insights: number; audit: number; dreams: number; openProposals: number };
  budgets: { head: number; insights: number; audit: number; dreams: number };
}

const DAY = 86_400_000;

const TOPICS = [
  'billing',
  'search',
  'auth',
  'export',
  'onboarding',
  'notifications',
  'reports',
  'sync',
];
const TOOLS = ['pnpm', 'yarn'];

/** A day's new units: a fresh fact, and every few days a restatement or a contradiction of an older one. */
function unitsFor(day: number): string[] {
  const topic = TOPICS[day % TOPICS.length]!;
  const units = [
    `The ${topic} service (day ${day}) keeps its job queue in table ${topic}_jobs_${day}.`,
  ];
  if (day % 5 === 0)
    units.push(
      `Day ${day - 5} note: the ${TOPICS[(day - 5) % TOPICS.length]} service keeps its job queue in table ${TOPICS[(day - 5) % TOPICS.length]}_jobs_${day - 5}.`,
    );
  if (day % 7 === 0)
    units.push(`The ${topic} worker for release ${day} is installed with ${TOOLS[day % 2]}.`);
  if (day % 7 === 3)
    units.push(
      `The ${topic} worker for release ${day - 3} is installed with ${TOOLS[(day + 1) % 2]}.`,
    );
  return units;
}

/** The bytes of a file's Cairn-managed region (`<!-- cairn:<name>:start -->` to its end marker). */
function regionBytes(path: string, name: string): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 0;
  }
  const start = text.indexOf(`<!-- cairn:${name}:start -->`);
  const end = text.indexOf(`<!-- cairn:${name}:end -->`);
  return start === -1 || end < start ? 0 : Buffer.byteLength(text.slice(start, end));
}

function headBytes(rootDir: string): number {
  return regionBytes(join(rootDir, '.cairn/memory/MEMORY.md'), 'head');
}

export async function oneRun(rootDir: string): Promise<MaintenanceRunFigures> {
  const cairn = await openCairn(rootDir, { env: { PATH: process.env.PATH ?? '' } });
  try {
    const units = (await cairn.list()).length;
    const heap = process.memoryUsage().heapUsed;
    const started = performance.now();
    const outcome = await openMaintenance(cairn).run();
    const ms = performance.now() - started;
    const memory = process.memoryUsage();
    return {
      units,
      ms,
      heapMb: Math.max(0, (memory.heapUsed - heap) / 2 ** 20),
      rssMb: memory.rss / 2 ** 20,
      proposed: outcome.action === 'ran' ? outcome.run.proposed : {},
    };
  } finally {
    cairn.closeWorking();
  }
}

export async function yearOfRuns(rootDir: string, days: number, start: Date): Promise<YearFigures> {
  let now = start.getTime();
  const cairn = await openCairn(rootDir, {
    env: { PATH: process.env.PATH ?? '' },
    now: () => new Date(now),
  });
  const maintenance = openMaintenance(cairn, { now: () => new Date(now) });
  const memory = join(rootDir, '.cairn/memory');
  const largest = { head: 0, insights: 0, audit: 0, dreams: 0 };
  const times: number[] = [];
  let added = 0;
  try {
    for (let day = 1; day <= days; day += 1) {
      now = start.getTime() + day * DAY;
      for (const text of unitsFor(day)) {
        if ((await cairn.add({ text })).action === 'created') added += 1;
      }
      const started = performance.now();
      await maintenance.run({ trigger: 'schedule', now: new Date(now) });
      times.push(performance.now() - started);
      largest.head = Math.max(largest.head, headBytes(rootDir));
      largest.insights = Math.max(
        largest.insights,
        regionBytes(join(memory, 'memory-insights.md'), 'insights'),
      );
      largest.audit = Math.max(
        largest.audit,
        regionBytes(join(memory, 'memory-audit.md'), 'audit'),
      );
      largest.dreams = Math.max(largest.dreams, regionBytes(join(memory, 'DREAMS.md'), 'dreams'));
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      runs: days,
      unitsAdded: added,
      msPerRun: { median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 },
      largest,
      final: {
        head: headBytes(rootDir),
        insights: regionBytes(join(memory, 'memory-insights.md'), 'insights'),
        audit: regionBytes(join(memory, 'memory-audit.md'), 'audit'),
        dreams: regionBytes(join(memory, 'DREAMS.md'), 'dreams'),
        openProposals: (await maintenance.proposals()).length,
      },
      // The head's budget is the render's (`limits.headTokens`, about 4 bytes a token).
      budgets: {
        head: cairn.settings.limits.headTokens * 4,
        insights: INSIGHTS_MAX_BYTES,
        audit: AUDIT_MAX_BYTES,
        dreams: DREAMS_MAX_BYTES,
      },
    };
  } finally {
    cairn.closeWorking();
  }
}
