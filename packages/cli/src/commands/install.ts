import { homedir } from 'node:os';
import {
  CairnError,
  type HarnessInstallOptions,
  type HarnessInstallReport,
  type InstallScope,
} from '@cairn/core';
import { sqliteDriverProblem } from '@cairn/engine';
import type { CommandContext, CommandSpec } from '../command';
import { HARNESS_IDS, loadHarness } from '../harnesses';
import { installCairnCommand } from './cairn-command';

function scopeOf(value: unknown): InstallScope {
  if (value === undefined || value === 'project') return 'project';
  if (value === 'user') return 'user';
  throw new CairnError('INVALID_INPUT', `Unknown scope "${String(value)}"`, {
    hint: 'use --scope project (this project, the default) or --scope user (every project)',
  });
}

export function installOptions(context: CommandContext): HarnessInstallOptions & {
  commandNote?: string;
} {
  const { io, values, root } = context;
  const scope = scopeOf(values.scope);
  const { command, note } = installCairnCommand(scope, io.env);
  return {
    scope,
    projectRoot: root,
    homeDir: io.env.HOME || homedir(),
    dryRun: values['dry-run'] === true,
    cairnCommand: command,
    env: io.env,
    ...(note ? { commandNote: note } : {}),
  };
}

function describe(report: HarnessInstallReport, verb: string): string {
  const lines = [
    `${report.dryRun ? `Would ${verb}` : `${verb[0]!.toUpperCase()}${verb.slice(1)}ed`} Cairn ${verb === 'install' ? 'for' : 'from'} ${report.harness} (${report.scope} scope):`,
  ];
  for (const change of report.changes) {
    lines.push(`  ${change.action.padEnd(9)} ${change.path}`);
    if (change.backup) lines.push(`            backup: ${change.backup}`);
    if (report.dryRun && change.preview) {
      lines.push(...change.preview.split('\n').map((line) => `            ${line}`));
    }
  }
  if (report.changes.every((change) => change.action === 'unchanged')) {
    lines.push('  nothing to change');
  }
  lines.push(...report.notes.map((note) => `  note: ${note}`));
  return lines.join('\n');
}

/**
 * Hooks that cannot open Cairn's databases inject nothing: an install
 * without a SQLite driver would report success and leave the harness
 * silently without memory, so it is refused with what fixes it.
 */
function refuseWithoutSqlite(harness: string): void {
  const problem = sqliteDriverProblem();
  if (!problem) return;
  throw new CairnError(
    'BACKEND_UNAVAILABLE',
    `Cannot install Cairn for ${harness}: no SQLite driver loads on Node ${process.versions.node}, so its hooks could not open Cairn's databases; nothing was changed`,
    { cause: problem, hint: problem.hint, details: { node: process.versions.node } },
  );
}

const OPTIONS = { scope: { type: 'string' }, 'dry-run': { type: 'boolean' } } as const;

export const installCommand: CommandSpec = {
  name: 'install',
  summary: `Wire Cairn into a harness: hooks and the MCP server (${HARNESS_IDS.join(', ')})`,
  usage: 'cairn install <harness> [--scope project|user] [--dry-run] [--json]',
  options: OPTIONS,
  positionals: { min: 1, max: 1 },
  opensUninitialized: true,
  async run(context) {
    const adapter = await loadHarness(context.positionals[0]!);
    const { commandNote, ...options } = installOptions(context);
    refuseWithoutSqlite(adapter.declaration.id);
    // A project install gives the project its memory folder too.
    if (options.scope === 'project' && !options.dryRun) await (await context.open()).init();
    const report = await adapter.install(options);
    if (commandNote) report.notes.push(commandNote);
    return { json: { ok: true, ...report }, text: describe(report, 'install') };
  },
};

export const uninstallCommand: CommandSpec = {
  name: 'uninstall',
  summary: "Remove Cairn's hooks and MCP server from a harness, keeping everything else",
  usage: 'cairn uninstall <harness> [--scope project|user] [--dry-run] [--json]',
  options: OPTIONS,
  positionals: { min: 1, max: 1 },
  async run(context) {
    const adapter = await loadHarness(context.positionals[0]!);
    const { commandNote: _, ...options } = installOptions(context);
    const report = await adapter.uninstall(options);
    return { json: { ok: true, ...report }, text: describe(report, 'uninstall') };
  },
};
