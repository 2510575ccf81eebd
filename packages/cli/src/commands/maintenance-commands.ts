import {
  formatErrorLine,
  type HarnessStatus,
  isUnsafePathError,
  type UserPathWarning,
  userPathWarnings,
} from '@cairn/core';
import {
  type Cairn,
  type DoctorFinding,
  formatBytes,
  linkFindings,
  openMaintenance,
  type StaleUnit,
} from '@cairn/engine';
import type { CommandContext, CommandOutput, CommandSpec } from '../command';
import { EXIT } from '../exit-codes';
import { type HookServerState, hookServerLine, hookServerState } from '../hook-server/server-state';
import { oneLine } from '../io';
import { harnessLines, harnessStatuses } from './harness-status';
import { documentsLine } from './status';

export const reindexCommand: CommandSpec = {
  name: 'reindex',
  summary: "Rebuild the configured backend's search index from the markdown (progress on stderr)",
  usage: 'cairn reindex [--json]',
  options: {},
  positionals: { min: 0, max: 0 },
  async run({ open, io, json }) {
    const cairn = await open();
    const progress = (message: string) => {
      if (!json) io.stderr(`cairn reindex: ${message}\n`);
    };
    const stats = await cairn.reindex(progress);
    const counts = [
      typeof stats.filesScanned === 'number' ? `${stats.filesScanned} files` : undefined,
      typeof stats.chunksWritten === 'number' ? `${stats.chunksWritten} chunks` : undefined,
    ].filter(Boolean);
    return {
      json: { ok: true, ...stats },
      text: `reindexed (${stats.backend})${counts.length ? `: ${counts.join(', ')}` : ''} in ${Math.round(Number(stats.ms))} ms`,
    };
  },
};

export const doctorCommand: CommandSpec = {
  name: 'doctor',
  summary:
    'Check the workspace (encoding, sizes, markers), the databases, ignored settings and harnesses; exits 1 when something needs you',
  usage: 'cairn doctor [--clear] [--json]',
  options: { clear: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  opensUninitialized: true,
  async run(context) {
    let cairn: Cairn;
    try {
      cairn = await context.open();
    } catch (error) {
      // Settings are read through .cairn/ too: a linked .cairn or config.json stops the open, not the report.
      if (!isUnsafePathError(error)) throw error;
      return linksOnlyReport(linkFindings(context.root), error);
    }
    const facts = await doctorFacts(context, cairn);
    const { report, health, ok } = facts;
    return {
      json: {
        ...report,
        ok,
        pendingWrites: health.pending,
        lifecycleFailures: health.failures,
        harnesses: facts.harnesses,
        hookServer: facts.hookServer,
        userPaths: facts.userPaths,
        staleUnits: facts.stale,
        trust: cairn.resolved.trust,
      },
      text: doctorLines(facts).map(oneLine).join('\n'),
      ...(ok ? {} : { exitCode: EXIT.FAILED }),
    };
  },
};

/** What doctor found in an opened project, and whether all of it is fine. */
interface DoctorFacts {
  report: Awaited<ReturnType<Cairn['doctor']>>;
  documents: string | undefined;
  health: ReturnType<Cairn['workingHealth']>;
  /** Lifecycle failures `--clear` marked seen. */
  cleared: number;
  harnesses: HarnessStatus[];
  hookServer: HookServerState;
  userPaths: UserPathWarning[];
  stale: StaleUnit[];
  ignored: Cairn['resolved']['trust']['ignored'];
  ok: boolean;
}

async function doctorFacts(context: CommandContext, cairn: Cairn): Promise<DoctorFacts> {
  // `--clear`: the lifecycle failures shown so far are seen; the check runs as usual.
  const cleared = context.values.clear === true ? cairn.clearLifecycleFailures() : 0;
  // Databases first: a damaged heads.db is a finding, not a crash of the health read.
  const report = await cairn.doctor();
  const documents = documentsLine(await cairn.status());
  const health = cairn.workingHealth();
  const harnesses = await harnessStatuses(context);
  const hookServer = await hookServerState(context.io.env);
  const harnessProblems = harnesses.some((status) => status.problems.length > 0);
  const ignored = cairn.resolved.trust.ignored;
  // Per-user paths (cache, state, config) that fail the ownership rule are not used.
  const userPaths = userPathWarnings({ env: context.io.env });
  // Units whose cited code changed or is gone (docs/MAINTENANCE.md): shown, never a failure.
  const stale = await openMaintenance(cairn, { env: context.io.env })
    .staleUnits()
    .catch(() => []);
  // A failed event (a session end, a refused payload) or unreadable deferred writes lost something.
  const working = health.pending.length === 0 && health.failures.length === 0 && !health.headsError;
  const ok = report.ok && working && !harnessProblems && !ignored.length && !userPaths.length;
  const facts = { report, documents, health, cleared, harnesses, hookServer, userPaths, stale };
  return { ...facts, ignored, ok };
}

/** The report as lines: counts, findings marked `!` (or `~` for notes), then the verdict. */
function doctorLines(facts: DoctorFacts): string[] {
  const { report, health } = facts;
  return [
    `${report.files} files, ${report.units} units`,
    `stores: ${report.stores.map((s) => `${s.store} ${formatBytes(s.bytes)}`).join(', ')}`,
    ...(facts.documents ? [`documents: ${facts.documents}`] : []),
    ...report.issues.map(
      (i) => `  ! ${i.path}:${i.line} ${i.kind}: ${i.message} (kept as raw text)`,
    ),
    // Settings findings are the `! ignored …` lines below.
    ...report.findings.filter((f) => f.area !== 'settings').map((f) => findingLine(f)),
    ...health.pending.map(
      (p) => `  ! deferred head write ${p.scope} (${p.reason}); it is retried on the next event`,
    ),
    ...(health.headsError
      ? [
          `  ! deferred head writes cannot be read (${health.headsError}) — heads written late may be lost: see the heads.db finding, or move .cairn/state/heads.db aside if there is none`,
        ]
      : []),
    ...health.failures.map(
      (f) => `  ! ${f.at} ${f.event} failed open: ${f.code}: ${f.message} — ${f.fix}`,
    ),
    ...(facts.cleared ? [`  ~ ${facts.cleared} lifecycle failure(s) marked seen`] : []),
    ...harnessLines(facts.harnesses),
    hookServerLine(facts.hookServer),
    ...facts.userPaths.map((warning) => `  ! ${warning.message}`),
    ...facts.stale.map(staleLine),
    ...facts.ignored.map(
      (i) =>
        `  ! ignored ${i.key} from the untrusted project config (${i.reason}); run \`cairn trust\` to allow it`,
    ),
    facts.ok ? 'ok' : 'problems found (see the lines marked !); nothing was dropped',
  ];
}

/** What a stale unit's state says about its cited code. */
const STALE_STATES: Record<StaleUnit['state'], string> = {
  changed: 'code changed since',
  moved: 'code moved',
  deleted: 'code gone, possibly stale',
};

function staleLine(unit: StaleUnit): string {
  const symbol = unit.anchor.symbol ? ` ${unit.anchor.symbol}` : '';
  const where = `${unit.anchor.path}${symbol}`;
  return `  ~ stale unit ${unit.memoryId}: ${STALE_STATES[unit.state]} (${where}); \`cairn review\``;
}

/** Doctor for a project that cannot be opened because of a link under `.cairn/`: the links, and why. */
function linksOnlyReport(findings: DoctorFinding[], error: unknown): CommandOutput {
  const lines = [
    ...findings.map((f) => findingLine(f)),
    `  ! the project was not opened: ${formatErrorLine(error)}`,
    'problems found (see the lines marked !); nothing was read through a link',
  ];
  return {
    json: { ok: false, issues: [], findings, stores: [], files: 0, units: 0 },
    text: lines.map(oneLine).join('\n'),
    exitCode: EXIT.FAILED,
  };
}

/** `  ! <path>: <what> — <fix>`; info findings are marked `~` like other notes. */
function findingLine(finding: DoctorFinding): string {
  const mark = finding.severity === 'info' ? '~' : '!';
  const where = finding.path ? `${finding.path}: ` : '';
  return `  ${mark} ${finding.severity} ${where}${finding.message} — ${finding.fix}`;
}
