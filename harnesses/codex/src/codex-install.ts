import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HarnessInstallOptions, HarnessInstallReport, HarnessStatus } from '@cairn/core';
import {
  applyPlan,
  formatJson,
  type PlannedFile,
  parseJsonFile,
  planJsonEdit,
  readOptional,
} from '@cairn/harness-kit';
import { codexFiles } from './codex-paths';
import {
  hookTrustEdit,
  MCP_SERVER_NAME,
  mcpServerEdit,
  mcpServerLines,
  planTomlEdits,
  projectTrusted,
  type TomlEdit,
} from './config-edits';
import { staleTrustEdits, userConfigProblems } from './config-health';
import { parseToml } from './config-toml';
import { CODEX_ID } from './deliver';
import { CODEX_HOOK_EVENTS } from './hook-payloads';
import {
  type CairnHookEntry,
  cairnHookEntries,
  checkHooksDocument,
  userHookKeys,
  withCairnHooks,
  withoutCairnHooks,
} from './hooks-file';

type Json = Record<string, unknown>;
type StatusOptions = Omit<HarnessInstallOptions, 'dryRun'>;

function projectRoots(root: string): string[] {
  const roots = [resolve(root)];
  try {
    roots.push(realpathSync(root));
  } catch {
    // A root that does not exist yet has only its given path.
  }
  return [...new Set(roots)];
}

function projectTrustNote(root: string, userConfig: string): string {
  return `Codex reads .codex/ only in a trusted project: accept Codex's trust prompt in ${root} once, run \`codex exec --trust ...\` there, or add [projects.${JSON.stringify(root)}] trust_level = "trusted" to ${userConfig}`;
}

async function readHooks(path: string): Promise<Json> {
  const document = parseJsonFile(path, await readOptional(path));
  checkHooksDocument(path, document);
  return document;
}

/** The config.toml edits, grouped by file (user scope puts MCP and trust in one file). */
async function planConfigs(edits: [string, TomlEdit][]): Promise<PlannedFile[]> {
  const paths = [...new Set(edits.map(([path]) => path))];
  return Promise.all(
    paths.map((path) =>
      planTomlEdits(
        path,
        edits.filter(([target]) => target === path).map(([, edit]) => edit),
      ),
    ),
  );
}

async function plan(options: HarnessInstallOptions, install: boolean) {
  const files = codexFiles(options);
  const current = await readHooks(files.hooksFile);
  const stale = cairnHookEntries(current, files.hooksFile).map((entry) => entry.key);
  const hooks: PlannedFile =
    install || stale.length > 0
      ? await planJsonEdit(files.hooksFile, (document) => {
          if (install) return withCairnHooks(document, options.cairnCommand);
          const next = withoutCairnHooks(document);
          return Object.keys(next).length > 0 ? next : undefined;
        })
      : { path: files.hooksFile, before: undefined, after: undefined };
  const after = hooks.after === undefined ? {} : (JSON.parse(hooks.after) as Json);
  const entries = install ? cairnHookEntries(after, files.hooksFile) : undefined;
  // The trust of the user's own hooks in the same file is theirs, before and after the edit.
  const userKeys = new Set([
    ...userHookKeys(current, files.hooksFile),
    ...userHookKeys(after, files.hooksFile),
  ]);
  const configs = await planConfigs([
    [
      files.layerConfig,
      mcpServerEdit(files.layerConfig, install ? mcpServerLines(options.cairnCommand) : undefined),
    ],
    [files.userConfig, hookTrustEdit(files.userConfig, files.hooksFile, entries, stale, userKeys)],
    ...(await staleTrustEdits(files.userConfig, files.hooksFile)),
  ]);
  return { files, planned: [hooks, ...configs] };
}

export async function installCodex(options: HarnessInstallOptions): Promise<HarnessInstallReport> {
  const { files, planned } = await plan(options, true);
  const notes: string[] = [];
  if (options.scope === 'project') {
    const userConfig = parseToml(files.userConfig, await readOptional(files.userConfig));
    if (!projectTrusted(userConfig, projectRoots(options.projectRoot))) {
      notes.push(projectTrustNote(resolve(options.projectRoot), files.userConfig));
    }
  }
  return applyPlan(CODEX_ID, options, planned, { notes });
}

export async function uninstallCodex(
  options: HarnessInstallOptions,
): Promise<HarnessInstallReport> {
  const { planned } = await plan(options, false);
  return applyPlan(CODEX_ID, options, planned, { uninstall: true });
}

function trustProblems(entries: CairnHookEntry[], userConfig: Json): string[] {
  const state = ((userConfig.hooks as Json | undefined)?.state ?? {}) as Record<string, unknown>;
  return entries
    .filter((entry) => (state[entry.key] as Json | undefined)?.trusted_hash !== entry.trustedHash)
    .map(
      (entry) =>
        `Codex will not run the Cairn ${entry.event} hook: it is not trusted (run \`cairn install codex\` again, or trust it in Codex's /hooks)`,
    );
}

export async function codexStatus(options: StatusOptions): Promise<HarnessStatus> {
  const files = codexFiles(options);
  const details: string[] = [];
  const problems: string[] = [];
  let entries: CairnHookEntry[] = [];
  let mcp: unknown;
  let userConfig: Json = {};
  try {
    entries = cairnHookEntries(await readHooks(files.hooksFile), files.hooksFile);
    userConfig = parseToml(files.userConfig, await readOptional(files.userConfig));
    const layer = parseToml(files.layerConfig, await readOptional(files.layerConfig));
    mcp = ((layer.mcp_servers ?? {}) as Json)[MCP_SERVER_NAME];
  } catch (error) {
    problems.push((error as Error).message);
  }
  const events = new Set(entries.map((entry) => entry.event));
  if (events.size > 0)
    details.push(`${files.hooksFile}: Cairn hooks for ${[...events].join(', ')}`);
  const missing = CODEX_HOOK_EVENTS.filter((event) => !events.has(event));
  if (events.size > 0 && missing.length > 0)
    problems.push(`No Cairn hook for ${missing.join(', ')}`);
  if (mcp)
    details.push(
      `${files.layerConfig}: [mcp_servers.${MCP_SERVER_NAME}] ${formatJson(mcp).replace(/\s+/g, ' ').trim()}`,
    );
  problems.push(...trustProblems(entries, userConfig));
  const installed = events.size > 0 && mcp !== undefined;
  if (
    installed &&
    options.scope === 'project' &&
    !projectTrusted(userConfig, projectRoots(options.projectRoot))
  ) {
    problems.push(projectTrustNote(resolve(options.projectRoot), files.userConfig));
  }
  // The user's config.toml is the user scope's file: its own findings are listed there once.
  if (options.scope === 'user') {
    problems.push(...(await userConfigProblems(files.userConfig, files.hooksFile)));
  }
  return {
    harness: CODEX_ID,
    installed,
    ...(installed || problems.length > 0 ? { scope: options.scope } : {}),
    details,
    problems,
  };
}
