import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dailyMemoryFileName } from '@cairn/core';
import { openCairn } from '@cairn/engine';
import {
  type ModelServer,
  makeTempProject,
  type RecordedModelRequest,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_BIN, codexAvailable, startAppServer } from './testing/app-server-client';
import { makeCodexHome } from './testing/codex-home';
import { describeRun, runCodex } from './testing/run-codex';

/**
 * One Codex session through the real pinned CLI after `cairn init` and
 * `cairn install codex` (project scope, hooks trusted by the install, no
 * --dangerously-bypass-hook-trust), against the scripted model server.
 * Run 1 prompts and calls memory_add through MCP; run 2 resumes the session
 * with a tiny auto-compaction limit so Codex compacts before the turn.
 */
const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const SEED = 'The staging cluster of this project is called heron-stage.';
const ADDED = 'Codex e2e: releases are cut on Thursdays.';
const SUMMARY = 'CODEX-E2E-SUMMARY: release work in progress, next step is the changelog.';
/** Only the prompt's recall can inject it: session start injects what the thread's state asks for. */
const RECALLED = 'The on-call pager alias of this project is osprey-oncall.';
const FILLERS = [
  'Unit tests run with vitest in every package.',
  'Code is formatted with Biome before each commit.',
  'The documentation site is built from the docs folder.',
  'Feature branches are merged with squash commits.',
];
const PROMPT =
  'Please remember that releases are cut on Thursdays. Which pager alias does on-call use, and which staging cluster?';
/** How a context pack labels the memory head (docs/PACKS.md). */
const HEAD_TITLE = '· head memory (.cairn/memory/MEMORY.md)]';
const MCP_TOOL = 'mcp__cairn__memory_add';

const skipReason = codexAvailable() ? undefined : `the pinned Codex CLI is missing (${CODEX_BIN})`;
if (skipReason) console.warn(`codex e2e skipped: ${skipReason}`);

/** The developer messages of a Responses request (where Codex puts hook additionalContext). */
function developerTexts(request: RecordedModelRequest): string[] {
  const input = (request.body as { input?: unknown } | undefined)?.input;
  if (!Array.isArray(input)) return [];
  return input
    .filter((item): item is { role: string; content: unknown } => item?.role === 'developer')
    .flatMap((item) => (Array.isArray(item.content) ? item.content : [item.content]))
    .map((part) => (typeof part === 'string' ? part : String(part?.text ?? '')));
}

describe.skipIf(skipReason !== undefined)('codex e2e (real CLI, scripted model)', () => {
  let temp: TempProject;
  let project: string;
  let env: Record<string, string>;
  const servers: ModelServer[] = [];
  /** The Codex session (thread id) run 1 starts and run 2 resumes. */
  let sessionId: string | undefined;

  const cairn = (...args: string[]) =>
    run(process.execPath, [CLI, ...args, '--root', project], { env: { ...process.env, ...env } });
  // `codex exec` sends its first request without waiting for MCP servers, so on
  // a loaded machine Cairn's tools can miss the only turn; `required = true`
  // (which the install leaves to the user: Codex then refuses to start without
  // Cairn) makes Codex wait for the server, so the run is deterministic.
  const codex = async (args: string[]) => {
    const [command, ...rest] = args;
    const pinned = [command!, '-c', 'mcp_servers.cairn.required=true', ...rest];
    const result = await runCodex(pinned, { cwd: project, env, timeoutMs: 150_000 });
    expect(result.code, describeRun(pinned, result)).toBe(0);
    return result;
  };
  /** Cairn's temporal nodes of one Codex session, read through the engine. */
  const sessionNodes = async (sessionKey: string) => {
    const memory = await openCairn(project, { env: {} });
    try {
      const seen = new Map<string, ReturnType<typeof memory.expand>>();
      const queue = memory.threads('codex').flatMap((thread) => thread.lineage);
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        if (seen.has(id)) continue;
        const view = memory.expand(id, 'codex');
        seen.set(id, view);
        queue.push(...view.children.map((child) => child.id));
      }
      // Hooks fail open: a swallowed lifecycle failure would otherwise go unnoticed.
      expect(memory.workingHealth().failures).toEqual([]);
      return [...seen.values()].filter((view) => view.node.sessionKey === sessionKey);
    } finally {
      memory.closeWorking();
    }
  };

  beforeAll(async () => {
    temp = await makeTempProject('cairn-codex-e2e-');
    project = join(temp.root, 'project');
    await mkdir(project, { recursive: true });
    await mkdir(join(temp.root, 'bin'));
    await symlink(CLI, join(temp.root, 'bin', 'cairn'));
    const server = await startModelServer({
      text: 'Done.',
      toolCalls: [{ tool: /memory_add/, input: { text: ADDED } }],
      compactionSummary: SUMMARY,
    });
    servers.push(server);
    // `cairn` on PATH (as after `npm i -g @cairn/cli`): the committed files run it.
    // The user has answered Codex's trust prompt for this project.
    env = await makeCodexHome({
      home: join(temp.root, 'home'),
      modelUrl: server.url,
      trusted: [project],
      pathDirs: [join(temp.root, 'bin')],
    });
    await cairn('init');
    for (const text of [RECALLED, ...FILLERS, SEED]) await cairn('add', text);
    await cairn('install', 'codex');
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.close();
    await temp?.cleanup();
  });

  it('the committed .codex/ files name `cairn` and no path of this machine', async () => {
    for (const name of ['hooks.json', 'config.toml']) {
      const text = await readFile(join(project, '.codex', name), 'utf8');
      expect(text).toContain('cairn');
      expect(text).not.toContain(temp.root);
      expect(text).not.toContain(process.execPath);
    }
  });

  it('Codex itself reports the Cairn MCP server connected and every Cairn hook trusted', async () => {
    // The health check's own hook runs are kept apart from the session under test.
    const server = await startAppServer({ ...env, CAIRN_AGENT_ID: 'codex-health-check' }, project);
    try {
      // The project layer (.codex/config.toml) applies to a thread in the project, so the
      // status is asked for such a thread (ephemeral: no rollout, no model request).
      const started = await server.request<{ thread: { id: string } }>('thread/start', {
        cwd: project,
        ephemeral: true,
      });
      const status = await server.request<{
        data: {
          name: string;
          runtimeStatus: string | null;
          serverInfo: { name: string } | null;
          tools: Record<string, unknown>;
          toolsError: string | null;
        }[];
      }>('mcpServerStatus/list', { serverName: 'cairn', threadId: started.thread.id });
      const cairnServer = status.data.find((entry) => entry.name === 'cairn');
      expect(cairnServer, JSON.stringify(status.data)).toBeDefined();
      expect(cairnServer?.toolsError).toBeNull();
      expect(cairnServer?.runtimeStatus).toBe('connected');
      expect(cairnServer?.serverInfo?.name).toBe('cairn');
      expect(Object.keys(cairnServer?.tools ?? {})).toContain('memory_add');
      const hooks = await server.request<{
        data: { hooks: { command?: string; trustStatus: string }[] }[];
      }>('hooks/list', { cwds: [project] });
      const ours = hooks.data
        .flatMap((entry) => entry.hooks)
        .filter((hook) => hook.command?.includes(' hook codex '));
      expect(ours.map((hook) => hook.trustStatus)).toEqual(Array(6).fill('trusted'));
    } finally {
      await server.close();
    }
  }, 180_000);

  it('run 1: injection, prompt recall, transcript, memory_add over MCP, session end', async () => {
    const model = servers[0]!;
    // This clone's head (the hooks inject it; MEMORY.md's region is the team head: docs/TEAMS.md).
    const localHead = async () =>
      (JSON.parse((await cairn('head', '--json')).stdout) as { local: string }).local.trim();
    const head = await localHead();
    const first = await codex(['exec', '--skip-git-repo-check', '--json', '-C', project, PROMPT]);
    const started = first.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type?: string; thread_id?: string })
      .find((event) => event.type === 'thread.started');
    sessionId = started?.thread_id;
    expect(sessionId, first.stdout).toBeTypeOf('string');

    // SessionStart's additionalContext (this clone's head, as the health check's session end
    // rendered it) reached the model as a developer message.
    expect(head, 'the clone has a rendered head before the session').not.toBe('');
    const responses = model.requests.filter((request) => request.path === '/v1/responses');
    const developer = responses.flatMap(developerTexts);
    const injected = developer.filter((text) => text.includes(HEAD_TITLE));
    // The pack carries the head's lines (its section titles become `Title:` lines).
    const headLines = head.split('\n').filter((line) => line.startsWith('- '));
    expect(headLines.length).toBeGreaterThan(0);
    expect(
      injected.some((text) => headLines.every((line) => text.includes(line))),
      `no /v1/responses request carried the head:\n${head}`,
    ).toBe(true);
    // It was a context pack naming its stored receipt (`cairn pack --last`).
    expect(injected.join('\n')).toMatch(/cairn:pack:start[\s\S]*?Receipt pack-[0-9a-f]{8}/);
    // UserPromptSubmit's additionalContext: the units the prompt asks about, which start left out.
    expect(injected.some((text) => text.includes(RECALLED))).toBe(false);
    expect(
      developer.some(
        (text) =>
          text.includes('## Cairn context pack') &&
          !text.includes(HEAD_TITLE) &&
          text.includes(RECALLED) &&
          text.includes(SEED),
      ),
    ).toBe(true);

    // memory_add went through Codex's MCP client into today's daily file.
    const { units } = JSON.parse((await cairn('list', '--json')).stdout) as {
      units: { text: string; path: string }[];
    };
    const added = units.find((unit) => unit.text === ADDED);
    expect(added?.path).toBe(dailyMemoryFileName(new Date(), 'local'));

    // The prompt and the MCP tool call are in the session's lineage transcript, and session
    // end wrote its session_summary node and refreshed this clone's head.
    const afterFirst = await sessionNodes(sessionId!);
    const summaryNode = afterFirst.find((view) => view.node.kind === 'session_summary');
    expect(summaryNode, JSON.stringify(afterFirst.map((v) => v.node))).toBeDefined();
    const entries = summaryNode!.transcript?.entries ?? [];
    expect(entries.some((entry) => entry.role === 'user' && entry.text.includes(PROMPT))).toBe(
      true,
    );
    expect(entries.some((entry) => entry.role === 'tool' && entry.toolName === MCP_TOOL)).toBe(
      true,
    );
    const headAfter = await localHead();
    expect(headAfter).not.toBe(head);
    expect(headAfter).toContain(summaryNode!.node.id);
  }, 180_000);

  // A server without the tool script (a compacted history has no tool result, so a scripted
  // tool call would repeat), and an auto-compaction limit below the usage.
  it('run 2: the resumed session auto-compacts; the compaction node holds the rollout summary', async () => {
    expect(sessionId, 'run 1 started a session').toBeDefined();
    const second = await startModelServer({ text: 'Resumed.', compactionSummary: SUMMARY });
    servers.push(second);
    await codex([
      'exec',
      '--skip-git-repo-check',
      '--json',
      '-C',
      project,
      '-c',
      `model_providers.e2e.base_url="${second.url}/v1"`,
      '-c',
      'model_auto_compact_token_limit=1',
      'resume',
      sessionId!,
      'Continue with the release.',
    ]);
    // SessionStart fired again on resume/compaction and its injection reached the model.
    expect(
      second.requests.some((request) =>
        developerTexts(request).some((text) => text.includes(HEAD_TITLE)),
      ),
    ).toBe(true);
    // Codex compacted with the scripted summary: its next turn carries it.
    expect(second.requestsContaining(SUMMARY).length).toBeGreaterThan(0);
    // PostCompact: the compaction node holds the summary Cairn read from the rollout file.
    const compaction = (await sessionNodes(sessionId!)).find(
      (view) => view.node.kind === 'compaction',
    );
    expect(compaction?.node.source).toBe('harness');
    expect(compaction?.node.text).toContain(SUMMARY);
    // PreCompact marked the boundary in the session's transcript (Codex's trigger: auto).
    const compactionEntries = compaction?.transcript?.entries ?? [];
    expect(
      compactionEntries.some(
        (entry) => entry.role === 'system' && entry.text === 'pre-compaction (auto)',
      ),
      JSON.stringify(compactionEntries),
    ).toBe(true);
  }, 180_000);
});
