import { formatNumber as f, markQuick, type Table, verdict } from '../report';
import type { Distribution } from '../stats';
import type { WorkingFigures } from './working-figures';

/** Printed beside the figures; information only. */
export const WORKING_TARGETS = { promptCliMedianRatio: 2, promptCliP95Ratio: 3 } as const;

const pair = (d: Distribution) => `${f(d.p50, 2)} / ${f(d.p95, 2)} ms`;

/** A row with a figure and no target. */
const plain = (measure: string, figure: string) => [measure, figure, '', ''];

function headRows(figures: WorkingFigures): string[][] {
  const { head, project } = figures;
  const measured = head.sessionEnd.n;
  const region = head.head;
  const failure = head.firstFailure ? `; first: ${head.firstFailure}` : '';
  return [
    plain(
      'Project',
      `${f(project.units, 0)} units, ${f(project.rawKb, 0)} KB notes; ${f(head.sessions, 0)} sessions over ${head.threads} topic threads`,
    ),
    plain(
      `Session end with ${f(head.sessions, 0)} sessions in the lineage (p50 / p95, ${measured} sessions)`,
      pair(head.sessionEnd),
    ),
    plain(
      `User prompt submit, in process (p50 / p95, ${measured} sessions)`,
      pair(head.userPromptSubmit),
    ),
    plain(`Session start, in process (p50 / p95, ${measured} sessions)`, pair(head.sessionStart)),
    [
      "This clone's head (the memory head the hooks inject)",
      `${f(region.tokens, 0)} tokens (${f(region.chars, 0)} chars / 4), ${region.lines} lines; ${region.threadsListed} of ${head.threadHeads} threads listed`,
      `<= ${f(region.budgetTokens, 0)} tokens (\`limits.headTokens\`)`,
      verdict(region.tokens <= region.budgetTokens),
    ],
    plain(
      'Thread heads',
      `${head.threadHeads} threads counting ${f(head.sessionsInHeads, 0)} sessions`,
    ),
    plain(
      'Events failed open / head writes deferred',
      `${head.failedEvents} / ${head.pendingWrites}${failure}`,
    ),
  ];
}

function headTable(figures: WorkingFigures): Table {
  const { head } = figures;
  const perSession = head.buildMs / head.sessions;
  const notes = [
    `Building the ${f(head.sessions, 0)} sessions (not part of any target) took ${f(head.buildMs / 1000, 1)} s, ${f(perSession, 1)} ms a session (start, one prompt, end).`,
    "Each session end writes a summary node (extractive summarizer, offline), condenses the thread when it holds more roots than `lineage.condenseThreshold`, then re-renders the thread head and this clone's head (kept in heads.db: docs/TEAMS.md) from every thread head and the approved decision and preference units, and MEMORY.md's team region when those units changed.",
    'Latencies are one call of `openCairn(...).lifecycle.*` measured with `performance.now()`; the timed sessions come after the build, each on the next thread in turn.',
  ];
  return {
    title: 'Head render with a long lineage (in process)',
    columns: ['Measure', 'Figure', 'Target', 'Result'],
    rows: headRows(figures),
    notes,
  };
}

function cliTable(figures: WorkingFigures): Table {
  const { cli, cliWorkspace } = figures;
  const command = '`cairn lifecycle user-prompt-submit --root <root>`';
  const workspace = [
    'Workspace',
    `${cliWorkspace.files} files, ${f(cliWorkspace.units, 0)} units, ${f(cliWorkspace.totalMb)} MB (the Scale workspace)`,
    '',
    '',
  ];
  const title = '`cairn lifecycle user-prompt-submit` (whole process)';
  const columns = ['Measure', 'Figure', 'Target', 'Result'];
  if (!cli.available) {
    return {
      title,
      columns,
      rows: [workspace, [command, `not measured: ${cli.reason}`, '', 'n/a']],
    };
  }
  const failed = cli.failedRuns ? `; ${cli.failedRuns} runs failed (${cli.firstFailure})` : '';
  return {
    title,
    columns,
    rows: [
      workspace,
      [`Bare \`node -e 0\` (p50 / p95, ${cli.runs} runs)`, pair(cli.node), '', ''],
      [
        `${command}, JSON on stdin (p50 / p95, ${cli.runs} runs, interleaved)`,
        `${pair(cli.cairn)}${failed}`,
        '',
        '',
      ],
      [
        'user-prompt-submit / bare node (medians)',
        `${f(cli.ratio, 2)}x`,
        `<= ${WORKING_TARGETS.promptCliMedianRatio}x`,
        verdict(cli.ratio <= WORKING_TARGETS.promptCliMedianRatio),
      ],
      [
        'user-prompt-submit / bare node (p95s)',
        `${f(cli.p95Ratio, 2)}x`,
        `<= ${WORKING_TARGETS.promptCliP95Ratio}x`,
        verdict(cli.p95Ratio <= WORKING_TARGETS.promptCliP95Ratio),
      ],
    ],
    notes: [
      `Payload \`{"agentId":"bench","sessionKey":"s-<i>","prompt":"<query>"}\`: a new session each run, the prompt a 1-4 word generator query, so recall searches the ${f(cliWorkspace.units, 0)} units.`,
      'One probe run (which builds the search index) and two warm-up rounds come first and are not counted; a run that exits non-zero, prints no JSON or answers `failed` counts as failed.',
    ],
  };
}

export function workingTables(figures: WorkingFigures): Table[] {
  const tables = [headTable(figures), cliTable(figures)];
  return markQuick(tables, figures.quick);
}
