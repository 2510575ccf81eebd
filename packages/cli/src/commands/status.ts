import { lstatSync } from 'node:fs';
import {
  describeSource,
  type MemoryAdapterStatus,
  SETTING_DEFINITIONS,
  type SettingsTrust,
  settingValue,
  userPathWarnings,
} from '@cairn/core';
import type { CairnStatus } from '@cairn/engine';
import type { CommandSpec } from '../command';

function capabilityList(capabilities: object): string {
  const on = Object.entries(capabilities)
    .filter(([, value]) => value === true)
    .map(([key]) => key);
  return on.length ? on.join(', ') : 'none';
}

function trustLine(trust: SettingsTrust): string {
  if (trust.projectConfig === 'absent') return 'no project config';
  if (trust.projectConfig === 'trusted') return `project config trusted (${trust.storePath})`;
  const ignored = trust.ignored.length ? `; ${trust.ignored.length} setting(s) ignored` : '';
  return `project config NOT trusted${ignored}: review it, then run \`cairn trust\``;
}

/** The recall adapter's own state (absent until the workspace has files): healthy, or why it falls back. */
function recallLines(status: MemoryAdapterStatus | undefined): string[] {
  if (!status) return [];
  const state = status.ok ? 'ok' : 'NOT ok';
  return [`  recall      ${state}${status.message ? `: ${status.message}` : ''}`];
}

/** The documents pool's counts, as its engine pool describes them in the recall status. */
export function documentsIndexed(
  status: CairnStatus,
): { documents: number; sections: number } | 'not indexed' | undefined {
  const pools = (status.retrievalAdapter.status?.details?.enginePools ?? []) as {
    id?: string;
    documents?: number;
    sections?: number;
  }[];
  const pool = pools.find((p) => p.id === 'documents');
  if (!pool) return undefined;
  if (typeof pool.documents !== 'number') return 'not indexed';
  return { documents: pool.documents, sections: pool.sections ?? 0 };
}

/** `12 documents, 85 sections indexed`, or why there are none: status and doctor print it. */
export function documentsLine(status: CairnStatus): string | undefined {
  const counts = documentsIndexed(status);
  if (counts === undefined) return undefined;
  if (counts === 'not indexed')
    return 'not indexed yet (the first pack or recall that reads documents indexes them)';
  return `${counts.documents} documents, ${counts.sections} sections indexed (memory.documentGlobs)`;
}

/**
 * The project's warnings, then those of the per-user paths that fail the
 * ownership rule (cache, state, config: docs/SECURITY.md), each once: the
 * settings already warn about the user config and trust store they skipped.
 */
function allWarnings(status: CairnStatus, env: NodeJS.ProcessEnv): string[] {
  const warnings = [...status.warnings];
  for (const { problem, message } of userPathWarnings({ env })) {
    if (!warnings.some((warning) => warning.includes(`\`${problem.fix}\``))) warnings.push(message);
  }
  return warnings;
}

/** A config file's path, marked when there is no such file (a default-only setup has none). */
function configLine(path: string): string {
  return lstatSync(path, { throwIfNoEntry: false }) ? path : `${path} (does not exist)`;
}

/** The settings lines: what is set (not a default), or all of them with `--all`. */
function settingLines(status: CairnStatus, all: boolean): string[] {
  const { settings, sources } = status.settings;
  const shown = SETTING_DEFINITIONS.filter(({ key }) => all || sources[key]?.kind !== 'default');
  const heading = all
    ? `Settings (all ${SETTING_DEFINITIONS.length}):`
    : `Settings set here (the other ${SETTING_DEFINITIONS.length - shown.length} have their defaults: \`cairn status --all\` lists every one):`;
  if (shown.length === 0) return [heading, '  (none: every setting has its default)'];
  const width = Math.max(...shown.map((d) => d.key.length));
  return [
    heading,
    ...shown.map(({ key }) => {
      const value = JSON.stringify(settingValue(settings, key));
      return `  ${key.padEnd(width)}  ${value}  (${describeSource(sources[key]!)})`;
    }),
  ];
}

function renderStatus(status: CairnStatus, all: boolean): string {
  const backend = status.backend;
  const lines = [
    `Cairn status for ${status.rootDir}`,
    `  workspace   ${status.workspace} (${status.initialized ? 'initialized' : 'not initialized: run `cairn init`'})`,
    `  backend     ${backend.resolved}${backend.requested !== backend.resolved ? ` (configured: ${backend.requested})` : ''} — ${backend.name} [${capabilityList(backend.capabilities)}]`,
    `  retrieval   ${status.retrievalAdapter.resolved} [${capabilityList(status.retrievalAdapter.capabilities)}]`,
    ...recallLines(status.retrievalAdapter.status),
    ...(documentsLine(status) ? [`  documents   ${documentsLine(status)}`] : []),
    `  user config ${configLine(status.settings.userConfigPath)}`,
    `  project cfg ${configLine(status.settings.projectConfigPath)}`,
    `  trust       ${trustLine(status.settings.trust)}`,
    '',
    ...settingLines(status, all),
  ];
  lines.push('', 'Files:');
  if (status.files.length === 0) lines.push('  (none)');
  for (const file of status.files) lines.push(`  ${file.path}  ${file.bytes} B`);
  if (status.warnings.length > 0) {
    lines.push('', 'Warnings:', ...status.warnings.map((warning) => `  ! ${warning}`));
  }
  return lines.join('\n');
}

export const statusCommand: CommandSpec = {
  name: 'status',
  summary:
    'Show the backend, paths, the settings set (not defaults) with their sources, and warnings',
  usage: 'cairn status [--all] [--root <dir>] [--json]',
  options: { all: { type: 'boolean', description: 'list every setting, defaults too' } },
  positionals: { min: 0, max: 0 },
  listsWarnings: true,
  opensUninitialized: true,
  async run({ open, io, values }) {
    const opened = await (await open()).status();
    const status = { ...opened, warnings: allWarnings(opened, io.env) };
    const { settings, sources, userConfigPath, projectConfigPath } = status.settings;
    return {
      json: {
        ok: true,
        rootDir: status.rootDir,
        workspace: status.workspace,
        initialized: status.initialized,
        backend: status.backend,
        retrievalAdapter: status.retrievalAdapter,
        settings,
        sources,
        configFiles: { user: userConfigPath, project: projectConfigPath },
        configFilesExist: {
          user: lstatSync(userConfigPath, { throwIfNoEntry: false }) !== undefined,
          project: lstatSync(projectConfigPath, { throwIfNoEntry: false }) !== undefined,
        },
        trust: status.settings.trust,
        files: status.files,
        warnings: status.warnings,
      },
      text: renderStatus(status, values.all === true),
    };
  },
};
