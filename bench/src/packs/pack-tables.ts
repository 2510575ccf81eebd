import { ESTIMATE_SAFETY_FACTOR } from '@cairn/engine/internals';
import { formatNumber, markQuick, type Table, verdict } from '../report';
import { PACK_P95_TARGET_MS, type PackFigures } from './pack-figures';

const ms = (value: number) => formatNumber(value, 1);
const ratio = (value: number) => formatNumber(value, 3);

function latencyTable(f: PackFigures): Table {
  return {
    title: `retrieveContextPack at a ${f.budgetTokens}-token budget (target p95 <= ${PACK_P95_TARGET_MS} ms)`,
    columns: ['part', 'status', 'p50 ms', 'p95 ms', 'max ms', 'candidates per pack', 'verdict'],
    rows: [
      [
        'whole pack',
        '',
        ms(f.total.p50),
        ms(f.total.p95),
        ms(f.total.max),
        `${formatNumber(f.items.p50, 0)} items (p50)`,
        verdict(f.total.p95 <= PACK_P95_TARGET_MS),
      ],
      ['whole pack, CPU time', '', ms(f.cpu.p50), ms(f.cpu.p95), ms(f.cpu.max), '', ''],
      ...f.planes.map((plane) => [
        plane.plane,
        plane.status,
        ms(plane.ms.p50),
        ms(plane.ms.p95),
        ms(plane.ms.max),
        formatNumber(plane.candidates, 1),
        '',
      ]),
    ],
    notes: [
      `${f.queries} queries after 5 warm-up calls, one after the other in one process; ${f.beadsIssues} Beads issues and ${f.documents} documents beside the lived-in project.`,
      "The verdict is on wall time. The CPU-time row (the process's user + system time per pack) moves less when other work shares the machine: read the wall figures against the load average above.",
      f.documentsPlane === 'off'
        ? `The documents plane answered nothing (reported \`off\`): the ${f.documents} documents were not read.`
        : `The documents plane reads the ${f.documents} documents through the project's recall (a cold pool of the file index, as \`cairn pack\` does); its first call indexes them (a warm-up call, not counted).`,
    ],
  };
}

function budgetTable(f: PackFigures): Table {
  return {
    title: 'Budget check: generated requests, the rendered pack counted again',
    columns: [
      'items costed with',
      'requests',
      'over budget (estimate)',
      'over budget (o200k_base)',
      'max used/budget (estimate)',
      'max used/budget (o200k_base)',
      'verdict',
    ],
    rows: f.budget.map((check) => [
      check.counter,
      String(check.requests),
      String(check.overBudget.estimate),
      String(check.overBudget.tokenizer),
      ratio(check.maxRatio.estimate),
      ratio(check.maxRatio.tokenizer),
      verdict(
        check.overBudget.estimate === 0 &&
          check.overBudget.tokenizer === 0 &&
          check.nonEmptyAtZero === 0,
      ),
    ]),
    notes: [
      'Budgets drawn equally from 0-20, 20-200, 200-2,000 and 2,000-20,000 tokens; planes a random subset (or all); queries empty, a few words, a named Beads issue, or 1,000-20,000 characters.',
      `The hook path costs items with the estimate raised by its safety factor (${ESTIMATE_SAFETY_FACTOR}), \`cairn pack\` with the tokenizer; the verdict asks that neither count of the rendered text exceeds the budget. The lived-in text is made of invented words, which the plain estimate undercounts (see docs/PACKS.md): the factor is what keeps those packs within the o200k_base count.`,
      ...overExamples(f),
    ],
  };
}

/** The first requests over budget, so a reader can replay them. */
function overExamples(f: PackFigures): string[] {
  return f.budget.flatMap((check) =>
    check.examples.map(
      (e) =>
        `Over budget (costed with ${check.counter}): budget ${e.budgetTokens}, estimate ${e.estimate}, o200k_base ${e.tokenizer}, planes ${e.planes?.join('+') ?? 'all'}, query ${e.query}.`,
    ),
  );
}

export function packTables(figures: PackFigures, quick: boolean | undefined): Table[] {
  return markQuick([latencyTable(figures), budgetTable(figures)], quick);
}
