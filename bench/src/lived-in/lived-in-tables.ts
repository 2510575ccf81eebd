import { formatNumber as f, markQuick, type Table, verdict } from '../report';
import type { Distribution } from '../stats';
import type { Captured } from './lived-in-build';
import type { LivedInFigures } from './lived-in-figures';
import type { StorageFigures, StoreName } from './lived-in-storage';

/** The lived-in targets (hook and event latency against bare node, storage against the bytes captured); information only, like every bench target. */
export const LIVED_IN_TARGETS = {
  hookMedianRatio: 1.5,
  hookP95Ratio: 2,
  eventP95Ratio: 1.2,
  storageRatio: 1.5,
} as const;

const ms = (d: Distribution) => `${f(d.p50, 1)} / ${f(d.p95, 1)} ms`;
const mb = (bytes: number) => `${f(bytes / 1e6, bytes < 1e7 ? 2 : 1)} MB`;
const n = (value: number) => f(value, 0);

function projectTable(x: LivedInFigures): Table {
  const { captured: c, build: b } = x;
  const total = c.sessions;
  const last = `${n(total - b.window + 1)}–${n(total)}`;
  const when = b.cached
    ? `cached (built ${b.builtAt.slice(0, 16).replace('T', ' ')} UTC)`
    : 'built in this run';
  return {
    title: 'The lived-in project and its build',
    columns: ['Measure', 'Figure'],
    rows: [
      [
        'Sessions',
        `${n(total)} (${n(c.prompts)} prompts, ${n(c.toolEvents)} tool events, ${n(c.units)} units filed)`,
      ],
      [
        'Tool outputs (p50 / p95 / max)',
        `${n(x.outputBytes.p50)} / ${n(x.outputBytes.p95)} / ${n(x.outputBytes.max)} bytes; ${n(x.outputsOver4000)} longer than 4,000 characters`,
      ],
      [
        'Captured (prompts + tool inputs + tool outputs + unit texts)',
        `${mb(c.totalBytes)} (${mb(c.promptBytes)} + ${mb(c.toolInputBytes)} + ${mb(c.toolOutputBytes)} + ${mb(c.unitBytes)})`,
      ],
      ['Build, in process (all sessions)', `${f(b.ms / 60_000, 1)} min, ${when}`],
      [`Per session, sessions 1–${n(b.window)}`, `${f(b.firstMs, 0)} ms`],
      [`Per session, sessions ${last}`, `${f(b.lastMs, 0)} ms (${f(b.lastMs / b.firstMs, 1)}x)`],
      [
        'Events failed open or units refused during the build',
        `${n(b.failures.count)}${b.failures.first ? `; first: ${b.failures.first}` : ''}`,
      ],
    ],
    notes: [
      `Mean ms per session, by ${n(b.window)} sessions: ${b.curve.map((value) => n(value)).join(', ')}.`,
      'A session is one `sessionStart` (explicit thread), five rounds of a prompt, four tool calls and one `add`, then `sessionEnd`, through `openCairn(root).lifecycle` in one long-running process, as OpenCode and OpenClaw run Cairn. The per-session times are the slowdown such a process sees as the project ages.',
    ],
  };
}

function hookRow(r: LivedInFigures['hooks'][number]): string[] {
  const t = LIVED_IN_TARGETS;
  const how = r.server ? 'hook server' : 'own process';
  const label = `\`${'command' in r ? r.command : r.hook}\`, ${r.promptSet} prompts, ${how}`;
  if (!('ratio' in r)) return [label, `not measured: ${r.reason}`, '', '', '', '', '', 'n/a'];
  const problems = r.failedRuns + r.offSourceRuns;
  const pass = r.ratio <= t.hookMedianRatio && r.p95Ratio <= t.hookP95Ratio && problems === 0;
  return [
    label,
    ms(r.cairn),
    ms(r.node),
    `${f(r.ratio, 2)}x`,
    `${f(r.p95Ratio, 2)}x`,
    `${r.runs - problems} of ${r.runs}${r.firstProblem ? ` (${r.firstProblem})` : ''}`,
    `${r.servedRuns} of ${r.runs}`,
    // The target is for Cairn as installed, the hook server on; the other rows show the fallback.
    r.server ? verdict(pass) : 'info',
  ];
}

function hookTable(x: LivedInFigures): Table {
  const t = LIVED_IN_TARGETS;
  return {
    title: 'Whole-process prompt hooks on the lived-in project',
    columns: [
      'Hook, prompts answered by, answered in',
      'Hook p50 / p95',
      'Bare node p50 / p95',
      `Median ratio (<= ${t.hookMedianRatio}x)`,
      `p95 ratio (<= ${t.hookP95Ratio}x)`,
      'Runs that injected from that source',
      'Runs the hook server answered',
      'Result',
    ],
    rows: x.hooks.map(hookRow),
    notes: [
      'Each hook runs as the harness runs it, one process per prompt, on a copy of the finished project, interleaved with bare `node -e 0`; a new session each run, one probe and two warm-up rounds not counted. Claude Code and Codex get their recorded UserPromptSubmit payloads; `cairn lifecycle` gets `{agentId, sessionKey, prompt}` as agent `opencode`.',
      '"hook server": Cairn as installed. The first event of the run starts the hook server (docs/HOOKS.md) and is answered in its own process; runs go on until the server answers one, and every measured run must be answered by it. The server keeps the project open between events; the hook process reads the payload, hands it over, prints the reply. "own process": `CAIRN_HOOK_SERVER=off`, every event loads Cairn and opens the project in its own process (what happens when no server answers); shown for comparison, without a verdict.',
      'Unit prompts are three words of a unit text; transcript prompts are two words that occur only in prompts and tool outputs of earlier sessions of that agent on the `lived-in.main` thread (the thread the hook infers from the checkout), never in a unit. A run counts only when it served the prompt and its injection came from that source (a pack item labelled with a unit, or a quoted raw transcript excerpt); the result needs both ratios and every run.',
    ],
  };
}

function eventTable(x: LivedInFigures): Table {
  const { early, full, p95Ratio } = x.events;
  const types = full.byType.map((entry) => entry.type);
  const rows = types.map((type) => {
    const a = early.byType.find((e) => e.type === type)?.ms;
    const b = full.byType.find((e) => e.type === type)!.ms;
    return [type, a ? ms(a) : 'n/a', ms(b), a ? `${f(b.p95 / a.p95, 2)}x` : 'n/a', '', ''];
  });
  rows.push([
    'all events',
    ms(early.overall),
    ms(full.overall),
    `${f(p95Ratio, 2)}x`,
    `<= ${LIVED_IN_TARGETS.eventP95Ratio}x`,
    verdict(p95Ratio <= LIVED_IN_TARGETS.eventP95Ratio),
  ]);
  const failed = early.failures.count + full.failures.count;
  return {
    title: `In-process event cost at session ${n(early.sessionsBefore)} and at session ${n(full.sessionsBefore)}`,
    columns: [
      'Event',
      `p50 / p95 after ${n(early.sessionsBefore)} sessions`,
      `p50 / p95 after ${n(full.sessionsBefore)} sessions`,
      'p95 ratio',
      'Target',
      'Result',
    ],
    rows,
    notes: [
      `On a copy of each snapshot, ${full.sessions + 1} new sessions of the generator's kind (the same ones for both) are played after its last session, the clock continuing, in one process through \`openCairn(root).lifecycle\` and \`add\`; the two projects take turns session by session, so both see the same machine load. The first session is a warm-up and not counted. ${failed} events failed open.`,
    ],
  };
}

const STORES: StoreName[] = ['memory', 'lineage', 'heads', 'index', 'other'];
const STORE_LABELS: Record<StoreName, string> = {
  memory: '`memory/` (markdown)',
  lineage: '`state/lineage.db` (+ -wal, -shm)',
  heads: '`state/heads.db` (+ -wal, -shm)',
  index: '`index/` (derived)',
  other: 'everything else',
};

function storageTable(x: LivedInFigures): Table {
  const { early, full } = x.storage;
  const ratio = (s: StorageFigures, c: Captured) => s.totalBytes / c.totalBytes;
  const fullRatio = ratio(full, x.captured);
  return {
    title: 'Storage: `.cairn/` against the bytes captured',
    columns: [
      'Measure',
      `After ${n(x.capturedEarly.sessions)} sessions`,
      `After ${n(x.captured.sessions)} sessions`,
      'Target',
      'Result',
    ],
    rows: [
      ['Captured', mb(x.capturedEarly.totalBytes), mb(x.captured.totalBytes), '', ''],
      ...STORES.map((store) => [
        STORE_LABELS[store],
        mb(early.stores[store]),
        mb(full.stores[store]),
        '',
        '',
      ]),
      [
        '`.cairn/` in all',
        `${mb(early.totalBytes)} (${n(early.files)} files)`,
        `${mb(full.totalBytes)} (${n(full.files)} files)`,
        '',
        '',
      ],
      [
        '`.cairn/` / captured',
        `${f(ratio(early, x.capturedEarly), 2)}x`,
        `${f(fullRatio, 2)}x`,
        `<= ${LIVED_IN_TARGETS.storageRatio}x`,
        verdict(fullRatio <= LIVED_IN_TARGETS.storageRatio),
      ],
    ],
    notes: [
      'Every file under `.cairn/` as the disk holds it once the sessions ended and the engine closed its handles: no checkpoint, no vacuum. The target applies to the finished project.',
    ],
  };
}

function losslessTable(x: LivedInFigures): Table {
  const l = x.lossless;
  return {
    title: 'Tier 3 stays lossless',
    columns: ['Measure', 'Figure', 'Target', 'Result'],
    rows: [
      [
        'Sampled tool outputs found whole in their transcript entry',
        `${n(l.intact)} of ${n(l.sampled)}`,
        `${n(l.sampled)} of ${n(l.sampled)}`,
        verdict(l.sampled > 0 && l.intact === l.sampled),
      ],
      ['Of those longer than 4,000 characters', `${n(l.longIntact)} of ${n(l.long)}`, '', ''],
      ['Sampled events with no transcript entry', n(l.missing), '0', ''],
    ],
    notes: [
      'Tool calls sampled evenly over the year are read back with `openLineageStore(root).getTranscript(agent, session)`; an output is intact when the entry text contains the delivered output string in full.',
      ...(l.firstLoss ? [`First loss: ${l.firstLoss}.`] : []),
    ],
  };
}

export function livedInTables(figures: LivedInFigures): Table[] {
  const tables = [
    projectTable(figures),
    hookTable(figures),
    eventTable(figures),
    storageTable(figures),
    losslessTable(figures),
  ];
  return markQuick(tables, figures.quick);
}
