import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Cairn, lastPackReceipts, openCairn } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeFidelity } from './claude-code-fidelity';
import { claudeEnv } from './claude-env.fixture';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../node_modules/.bin/claude', import.meta.url));
const MARKETPLACE = fileURLToPath(new URL('../marketplace', import.meta.url));
const SEED = 'The staging cluster is called kestrel-stage.';
const REMEMBERED = 'The deploy key lives in vault path ops/deploy.';
const SUMMARY = 'Compacted: the user asked where the deploy key lives; it is stored in Cairn.';
const TIMEOUT = 180_000;

const skip = !existsSync(CLAUDE)
  ? `the pinned Claude Code CLI is missing (${CLAUDE}); run pnpm install`
  : !existsSync(CLI)
    ? `the cairn CLI is not built (${CLI}); build packages/cli`
    : undefined;

let base: string;
let root: string;
let home: string;
let server: ModelServer;

// `cairn` on PATH (as after `npm i -g @cairn/cli`): what the install writes runs it.
const env = () => claudeEnv({ home, modelUrl: server.url, pathDirs: [join(base, 'bin')] });

const cairnCli = (...args: string[]) =>
  run(process.execPath, [CLI, ...args], { cwd: root, env: env(), timeout: TIMEOUT });
const claude = (...args: string[]) =>
  run(CLAUDE, args, { cwd: root, env: env(), timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024 });

async function claudeJson(...args: string[]): Promise<{ session_id: string; is_error: boolean }> {
  return JSON.parse((await claude(...args, '--output-format', 'json')).stdout);
}

/** Reads engine state in a fresh handle, closed at once, so the hooks' writes are all seen. */
async function withCairn<T>(read: (cairn: Cairn) => T | Promise<T>): Promise<T> {
  const cairn = await openCairn(root, { env: {} });
  try {
    return await read(cairn);
  } finally {
    cairn.closeWorking();
  }
}

function nodesOfKind(kind: string) {
  return withCairn((cairn) =>
    cairn
      .threads('claude-code')
      .flatMap((thread) => thread.lineage)
      .map((nodeId) => cairn.expand(nodeId, 'claude-code'))
      .filter((view) => view.node.kind === kind),
  );
}

/** Claude Code's own transcript of the session, one JSON object per line. */
async function claudeTranscript(sessionId: string): Promise<Record<string, unknown>[]> {
  const projects = join(home, '.claude/projects');
  for (const dir of await readdir(projects)) {
    const file = join(projects, dir, `${sessionId}.jsonl`);
    if (existsSync(file)) {
      return (await readFile(file, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    }
  }
  throw new Error(`no transcript for ${sessionId} under ${projects}`);
}

describe.skipIf(skip !== undefined)(`claude-code e2e${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let sessionId: string;

  beforeAll(async () => {
    base = realpathSync(await mkdtemp(join(tmpdir(), 'cairn-cc-e2e-')));
    root = join(base, 'project');
    home = join(base, 'home');
    await mkdir(root, { recursive: true });
    await mkdir(home, { recursive: true });
    await mkdir(join(base, 'bin'));
    await symlink(CLI, join(base, 'bin', 'cairn'));
    server = await startModelServer({
      text: 'Noted.',
      toolCalls: [{ tool: /^mcp__cairn__memory_add$/, input: { text: REMEMBERED } }],
      compactionSummary: SUMMARY,
    });
    await run('git', ['init', '-q', root]);
    await cairnCli('init');
    await cairnCli('add', SEED);
    await cairnCli('install', 'claude-code', '--scope', 'project');
    // What accepting Claude Code's workspace trust prompt records (a documented limit).
    await writeFile(
      join(home, '.claude.json'),
      JSON.stringify({ projects: { [root]: { hasTrustDialogAccepted: true } } }),
    );
  }, TIMEOUT);

  afterAll(async () => {
    await server?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('claude mcp list reports the cairn server connected', { timeout: TIMEOUT }, async () => {
    const { stdout } = await claude('mcp', 'list');
    const line = stdout.split('\n').find((l) => l.startsWith(`cairn:`));
    expect(line).toMatch(/Connected/);
  });

  it('injects at start, records the prompt, stores memory_add and closes the session', {
    timeout: TIMEOUT,
  }, async () => {
    // The prompt also asks about the seeded unit: the pack for it brings it (not session start's).
    const result = await claudeJson(
      '-p',
      'Remember where the deploy key lives. Which staging cluster do we use?',
    );
    expect(result.is_error).toBe(false);
    sessionId = result.session_id;

    // The prompt's additionalContext reached the model with the unit it asks about.
    const messages = server.requests.filter((r) => r.api === 'anthropic-messages');
    const failures = await readFile(
      join(root, '.cairn/state/lifecycle-errors.jsonl'),
      'utf8',
    ).catch(() => 'no lifecycle failures logged');
    expect(
      messages.some((r) => r.text.includes('kestrel-stage')),
      failures,
    ).toBe(true);
    // It was a context pack naming its stored receipt (`cairn pack --last`).
    const receiptId = messages
      .map((r) => /cairn:pack:start[\s\S]*?Receipt (pack-[0-9a-f]{8})/.exec(r.text)?.[1])
      .find(Boolean);
    expect(receiptId, 'no model request carried a context pack').toBeDefined();
    expect(lastPackReceipts(root, { limit: 50 }).map((r) => r.receiptId)).toContain(receiptId);

    // memory_add, called by the model through Claude Code's MCP client, wrote today's daily file.
    const units = await withCairn((cairn) => cairn.list());
    const seed = units.find((u) => u.text === SEED)!;
    const added = units.find((u) => u.text === REMEMBERED);
    expect(added?.path).toBe(seed.path);

    // SessionEnd wrote the session summary, whose transcript holds the prompt and the tool call.
    const [summary] = await nodesOfKind('session_summary');
    expect(summary).toBeDefined();
    const entries = summary!.transcript?.entries ?? [];
    expect(
      entries.some((e) => e.role === 'user' && e.text.includes('Remember where the deploy key')),
    ).toBe(true);
    expect(entries.some((e) => e.role === 'tool' && e.text.includes('ops/deploy'))).toBe(true);

    // ... and refreshed this clone's head (MEMORY.md's region is the team head: docs/TEAMS.md).
    expect(await withCairn((cairn) => cairn.localHead())).toContain(summary!.node.id);
    const memory = await readFile(join(root, '.cairn/memory/MEMORY.md'), 'utf8');
    expect(memory).not.toContain(summary!.node.id);
  });

  it('compaction: PreCompact instructions reach the model, PostCompact summary becomes the node, the head comes back', {
    timeout: TIMEOUT,
  }, async () => {
    const before = server.requests.length;
    await claudeJson('-p', '/compact', '--resume', sessionId);

    const compaction = server.requests
      .slice(before)
      .find((r) => r.text.includes('Cairn context pack: keep across compaction'));
    expect(compaction).toBeDefined();

    const nodes = await nodesOfKind('compaction');
    expect(nodes.map((view) => view.node.text).join('\n')).toContain(SUMMARY);

    // SessionStart(compact) put Cairn's head back into the compacted context.
    const transcript = await claudeTranscript(sessionId);
    const boundary = transcript.findIndex(
      (e) => e.type === 'system' && e.subtype === 'compact_boundary',
    );
    expect(boundary).toBeGreaterThan(-1);
    const reinjected = transcript.slice(boundary).some((e) => {
      const attachment = e.attachment as { type?: string; content?: unknown } | undefined;
      return (
        attachment?.type === 'hook_additional_context' &&
        JSON.stringify(attachment.content).includes('head memory (.cairn/memory/MEMORY.md)')
      );
    });
    expect(reinjected).toBe(true);
  });

  it('the plugin and its marketplace pass claude plugin validate', {
    timeout: TIMEOUT,
  }, async () => {
    await claude('plugin', 'validate', join(MARKETPLACE, 'plugin'));
    await claude('plugin', 'validate', MARKETPLACE);
  });

  it('declares what this test proves, against the pinned version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(claudeCodeFidelity.checkedVersion).toBe(
      pkg.devDependencies['@anthropic-ai/claude-code'],
    );
  });
});
