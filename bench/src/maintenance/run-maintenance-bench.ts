import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import { isDueCheap } from '@cairn/engine/internals';
import { PROJECT_NAME } from '../lived-in/lived-in-generator';
import { livedInProject } from '../lived-in/lived-in-project';
import { scratchCopy } from '../lived-in/project-copy';
import { formatNumber, markQuick, type Section, type Table, verdict } from '../report';
import { type DetectionScore, readLabelledPairs, scorePairs } from './pair-detection';
import { measureStaleness, type StalenessFigures } from './staleness-history';
import { type MaintenanceRunFigures, oneRun, type YearFigures, yearOfRuns } from './year-of-runs';

const PAIRS = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/maintenance/unit-pairs.tsv',
);
/** The target: precision at least this at recall at least RECALL_TARGET, on both parts of the set. */
export const PRECISION_TARGET = 0.9;
export const RECALL_TARGET = 0.7;

const log = (line: string) => process.stderr.write(`${line}\n`);
const kib = (bytes: number) => `${formatNumber(bytes / 1024, 1)} KiB`;

export interface MaintenanceFigures {
  run: MaintenanceRunFigures;
  /** The session-end hook's due check (one small file read), in microseconds. */
  dueCheckUs: number;
  year: YearFigures;
  pairs: DetectionScore[];
  staleness: StalenessFigures;
}

/** Microseconds a call of `fn` takes, over `times` calls after a warm-up. */
function microseconds(fn: () => unknown, times: number): number {
  for (let i = 0; i < 100; i += 1) fn();
  const started = performance.now();
  for (let i = 0; i < times; i += 1) fn();
  return ((performance.now() - started) * 1000) / times;
}

async function onLivedIn(
  quick: boolean,
): Promise<{ run: MaintenanceRunFigures; year: YearFigures; dueCheckUs: number }> {
  const project = await livedInProject(quick, log);
  const first = await scratchCopy(join(project.entry.full, PROJECT_NAME));
  try {
    log('maintenance: one extraction run on the lived-in project');
    const run = await oneRun(first.rootDir);
    // The session-end hook's check with a plan on disk (the common case: not due yet).
    const opened = await openCairn(first.rootDir);
    const enabled = { ...opened.settings, insightExtractionEnabled: true };
    opened.closeWorking();
    const dueCheckUs = microseconds(() => isDueCheap(first.rootDir, enabled, new Date(0)), 2000);
    const days = quick ? 30 : 365;
    log(`maintenance: ${days} daily runs on a fake clock`);
    const year = await yearOfRuns(first.rootDir, days, new Date('2027-01-01T02:00:00Z'));
    return { run, year, dueCheckUs };
  } finally {
    await first.dispose();
  }
}

function runTable({ run, year, dueCheckUs }: MaintenanceFigures): Table {
  const kinds =
    Object.entries(run.proposed)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ') || 'none';
  return {
    title: 'One extraction run on the lived-in project',
    columns: ['units', 'time', 'heap growth', 'RSS after', 'proposals by kind'],
    rows: [
      [
        String(run.units),
        `${formatNumber(run.ms, 0)} ms`,
        `${formatNumber(run.heapMb, 1)} MB`,
        `${formatNumber(run.rssMb, 0)} MB`,
        kinds,
      ],
    ],
    notes: [
      `The due check a session-end hook makes (insightExtractionEnabled on, a plan on disk): ${formatNumber(dueCheckUs, 1)} µs; it loads no cron library and never runs the extraction inline.`,
      `Then ${year.runs} daily runs (fake clock), ${year.unitsAdded} units added meanwhile, no proposal decided: ${formatNumber(year.msPerRun.median, 0)} ms median per run, ${formatNumber(year.msPerRun.max, 0)} ms at most; ${year.final.openProposals} proposals open at the end.`,
    ],
  };
}

function growthTable({ year }: MaintenanceFigures): Table {
  const row = (name: string, key: keyof YearFigures['largest']) => [
    name,
    kib(year.final[key]),
    kib(year.largest[key]),
    kib(year.budgets[key]),
    verdict(year.largest[key] <= year.budgets[key]),
  ];
  return {
    title: `Managed regions after ${year.runs} daily runs (largest over the year against the budget)`,
    columns: ['region', 'at the end', 'largest', 'budget', 'verdict'],
    rows: [
      row('MEMORY.md head', 'head'),
      row('memory-insights.md', 'insights'),
      row('memory-audit.md', 'audit'),
      row('DREAMS.md', 'dreams'),
    ],
  };
}

function pairsTable({ pairs }: MaintenanceFigures): Table {
  return {
    title: `Duplicate and contradiction detection on ${PAIRS.split('/').slice(-3).join('/')} (target precision >= ${PRECISION_TARGET} at recall >= ${RECALL_TARGET})`,
    columns: ['part', 'label', 'pairs', 'positives', 'precision', 'recall', 'verdict'],
    rows: pairs.map((s) => [
      s.part,
      s.label === 'dup' ? 'near duplicate' : 'contradiction',
      String(s.pairs),
      String(s.positives),
      formatNumber(s.precision, 3),
      formatNumber(s.recall, 3),
      verdict(s.precision >= PRECISION_TARGET && s.recall >= RECALL_TARGET),
    ]),
    notes: [
      'Every third pair is held out: the thresholds were tuned on the development part only.',
    ],
  };
}

function stalenessTable({ staleness }: MaintenanceFigures): Table {
  return {
    title: 'Staleness on a scripted git history (testkit makeStalenessRepo)',
    columns: ['case', 'expected', 'classified', 'verdict'],
    rows: staleness.cases.map((c) => [c.name, c.expected, c.got, verdict(c.expected === c.got)]),
    notes: [
      `Checking every anchor at a new HEAD took ${formatNumber(staleness.firstCheckMs, 0)} ms (git reads); the same HEAD again ${formatNumber(staleness.cachedCheckMs, 1)} ms (cached in maintenance.db).`,
    ],
  };
}

export async function runMaintenanceBench(options: { quick?: boolean } = {}): Promise<Section> {
  const quick = options.quick ?? false;
  const pairs = scorePairs(readLabelledPairs(PAIRS)).scores;
  const staleness = await measureStaleness();
  const figures: MaintenanceFigures = { ...(await onLivedIn(quick)), pairs, staleness };
  return {
    name: 'maintenance',
    title: 'Maintenance',
    intro: [
      'Insight extraction and consolidation (docs/MAINTENANCE.md): one run on the lived-in project, a year of daily runs on a fake clock with the budgets of the managed regions, duplicate and contradiction detection on a hand-labelled set of 219 unit pairs, and staleness of code anchors on a scripted git history.',
    ],
    tables: markQuick(
      [runTable(figures), growthTable(figures), pairsTable(figures), stalenessTable(figures)],
      quick,
    ),
    figures,
  };
}
