import type { HarnessInstallOptions, HarnessInstallReport, HarnessStatus } from '@cairn/core';
import {
  applyPlan,
  type PlannedFile,
  parseJsonFile,
  planGitignoreEntries,
  planJsonEdit,
  readOptional,
} from '@cairn/harness-kit';
import { claudeCodeFiles } from './claude-code-paths';
import { CLAUDE_CODE_ID } from './deliver';
import { CLAUDE_CODE_HOOK_EVENTS } from './hook-payloads';
import {
  cairnHooksIn,
  hasPermission,
  MCP_SERVER_NAME,
  mcpServerEntry,
  mcpServerIn,
  withCairnHooks,
  withListItem,
  withMcpServer,
  withoutCairnHooks,
  withoutListItem,
  withoutMcpServer,
  withoutPermission,
  withPermission,
} from './settings-edits';

type Json = Record<string, unknown>;
const APPROVAL_KEY = 'enabledMcpjsonServers';
/** The project's per-user settings file, relative to the root as .gitignore names it. */
const LOCAL_SETTINGS = '.claude/settings.local.json';

/** A removal edit: when taking Cairn's entries out leaves an empty object, the file goes. */
const removal =
  (edit: (value: Json) => Json) =>
  (current: Json): Json | undefined => {
    const next = edit(current);
    if (JSON.stringify(next) === JSON.stringify(current)) return current;
    return Object.keys(next).length > 0 ? next : undefined;
  };

const PROJECT_TRUST_NOTE =
  "project scope needs Claude Code's workspace trust: in a workspace not trusted yet (trust prompt never accepted, as with `claude -p` in CI) Claude Code ignores .mcp.json's approval and the mcp__cairn allow rule, so every memory tool is denied (hooks still run). Start `claude` here once and accept the trust prompt, or also run `cairn install claude-code --scope user`, which works without it.";
const USER_SCOPE_NOTE =
  'user scope: the MCP server (~/.claude.json) and the mcp__cairn allow rule (~/.claude/settings.json) apply in every workspace, trusted or not; the hooks too.';

export async function installClaudeCode(
  options: HarnessInstallOptions,
): Promise<HarnessInstallReport> {
  const files = claudeCodeFiles(options);
  // No --root: Claude Code starts the server in the project folder, which
  // `cairn mcp` finds from its cwd; a committed .mcp.json names no path.
  const entry = mcpServerEntry(options.cairnCommand);
  const planned: PlannedFile[] = [
    await planJsonEdit(files.settings, (settings) =>
      withPermission(withCairnHooks(settings, options.cairnCommand)),
    ),
    await planJsonEdit(files.mcp, (config) => withMcpServer(config, entry)),
  ];
  if (files.approval) {
    planned.push(
      await planJsonEdit(files.approval, (local) =>
        withListItem(local, APPROVAL_KEY, MCP_SERVER_NAME),
      ),
      // settings.local.json holds this user's approvals: never committed.
      await planGitignoreEntries(options.projectRoot, [LOCAL_SETTINGS]),
    );
  }
  const notes = [options.scope === 'project' ? PROJECT_TRUST_NOTE : USER_SCOPE_NOTE];
  return applyPlan(CLAUDE_CODE_ID, options, planned, { notes });
}

export async function uninstallClaudeCode(
  options: HarnessInstallOptions,
): Promise<HarnessInstallReport> {
  const files = claudeCodeFiles(options);
  const planned: PlannedFile[] = [
    await planJsonEdit(
      files.settings,
      removal((settings) => withoutPermission(withoutCairnHooks(settings))),
    ),
    await planJsonEdit(files.mcp, removal(withoutMcpServer)),
  ];
  if (files.approval) {
    planned.push(
      await planJsonEdit(
        files.approval,
        removal((local) => withoutListItem(local, APPROVAL_KEY, MCP_SERVER_NAME)),
      ),
    );
  }
  if (files.approval) {
    // The ignore line goes only with the exact bytes the install found (the install ledger).
    const gitignore = await planGitignoreEntries(options.projectRoot, []);
    planned.push({ ...gitignore, after: gitignore.before });
  }
  // Uninstall never creates a file, and a missing one is not reported.
  const existing = planned.filter((file) => file.before !== undefined);
  return applyPlan(CLAUDE_CODE_ID, options, existing, { uninstall: true });
}

async function readJson(path: string): Promise<Json> {
  return parseJsonFile(path, await readOptional(path));
}

export async function claudeCodeStatus(
  options: Omit<HarnessInstallOptions, 'dryRun'>,
): Promise<HarnessStatus> {
  const files = claudeCodeFiles(options);
  const details: string[] = [];
  const problems: string[] = [];
  const settings = await readJson(files.settings);
  const hooks = cairnHooksIn(settings);
  const server = mcpServerIn(await readJson(files.mcp));
  const installed = hooks.size > 0 || server !== undefined;
  if (hooks.size > 0) details.push(`${files.settings}: hooks for ${[...hooks.keys()].join(', ')}`);
  if (server) details.push(`${files.mcp}: MCP server "${MCP_SERVER_NAME}"`);
  if (!installed)
    return { harness: CLAUDE_CODE_ID, installed, scope: options.scope, details, problems };

  const missing = CLAUDE_CODE_HOOK_EVENTS.filter((event) => !hooks.has(event));
  if (missing.length > 0)
    problems.push(`no Cairn hook for ${missing.join(', ')} in ${files.settings}`);
  if (!server)
    problems.push(`the MCP server "${MCP_SERVER_NAME}" is not registered in ${files.mcp}`);
  if (!hasPermission(settings)) {
    details.push(
      `${files.settings}: Cairn's MCP tools are not pre-allowed (Claude Code asks per call)`,
    );
  }
  if (files.approval && server) {
    const approved = (await readJson(files.approval))[APPROVAL_KEY];
    if (!Array.isArray(approved) || !approved.includes(MCP_SERVER_NAME)) {
      problems.push(
        `${files.approval} does not approve "${MCP_SERVER_NAME}" (enabledMcpjsonServers)`,
      );
    }
  }
  if (problems.length > 0) problems.push('run `cairn install claude-code` again to repair');
  return { harness: CLAUDE_CODE_ID, installed, scope: options.scope, details, problems };
}
