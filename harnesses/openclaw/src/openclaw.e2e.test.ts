import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { HEAD_START_MARKER } from '@cairn/core';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs scripts, shared with the capture script
import { buildSqliteForNode24 } from '../scripts/build-sqlite-node24.mjs';
// @ts-expect-error: plain .mjs scripts, shared with the capture script
import * as session from '../scripts/openclaw-session.mjs';

interface RecordedRequest {
  text: string;
}
interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  requestsContaining(needle: string): RecordedRequest[];
  close(): Promise<void>;
}
type StartModelServer = (script: object) => Promise<ModelServer>;

const SEED = 'The staging cluster for the e2e check is called kestrel-stage.';
const PROMPT =
  'Which staging cluster do we use? Also remember that the deploy target is kestrel-prod.';
const FOLLOW_UP = 'What is the deploy target?';
const SUMMARY = 'E2E compaction summary: deploys go to kestrel-prod.';
const cli = resolve(import.meta.dirname, '..', '..', '..', 'packages', 'cli', 'dist', 'bin.cjs');
const testkit = (await import('@cairn/testkit')) as { startModelServer?: StartModelServer };
const missing = !session.openclawAvailable()
  ? 'the pinned openclaw CLI or the Node 24 binary (@cairn/node24) is not installed'
  : !testkit.startModelServer
    ? '@cairn/testkit does not export startModelServer yet'
    : !existsSync(cli)
      ? `${cli} is not built`
      : undefined;
if (missing) console.warn(`openclaw e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('openclaw e2e (real CLI, scripted model)', () => {
  let temp: TempProject;
  let server: ModelServer;
  let cairn: Cairn;
  let project: string;
  let home: string;
  let headBefore: string;
  let probe: { tools: string[] };
  let gatewayLog: string;
  let doctor: { harnesses: { harness: string; installed: boolean; problems: string[] }[] };

  beforeAll(async () => {
    const binding = buildSqliteForNode24({ log: () => {} }) as string;
    temp = await makeTempProject('cairn-openclaw-e2e-');
    project = join(temp.root, 'project');
    home = join(temp.root, 'home');
    await mkdir(project, { recursive: true });
    const seed = await openCairn(project, { env: {} });
    await seed.init();
    await seed.add({ text: SEED });
    seed.closeWorking();
    headBefore = await readFile(join(project, '.cairn', 'memory', 'MEMORY.md'), 'utf8');
    server = await testkit.startModelServer!({
      text: 'Noted.',
      toolCalls: [{ tool: /memory_add/, input: { text: 'The deploy target is kestrel-prod.' } }],
      compactionSummary: SUMMARY,
    });
    await session.writeOpenclawConfig(home, { modelUrl: server.url, workspace: project });
    // `cairn` on PATH (as after `npm i -g @cairn/cli`): the MCP server entry runs it.
    await mkdir(join(temp.root, 'bin'));
    await symlink(cli, join(temp.root, 'bin', 'cairn'));
    const env = {
      ...process.env,
      PATH: `${join(temp.root, 'bin')}${delimiter}${process.env.PATH}`,
      HOME: home,
      CAIRN_SQLITE_BINDING: binding,
      // The plugin opens the project cold at the first prompt: on a loaded CI machine a
      // plane's first search can outlast the default 2 s and be left out (fail-open).
      CAIRN_MEMORY_PLANE_TIMEOUT_MS: '10000',
    };
    // Through the `cairn` command users run (the bundled CLI), not the adapter.
    const cairnCli = (args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], { cwd: project, env, encoding: 'utf8' });
    const installed = cairnCli(['install', 'openclaw']);
    if (installed.status !== 0) throw new Error(`cairn install openclaw: ${installed.stderr}`);
    const probed = await session.openclaw(['mcp', 'probe', 'cairn', '--json'], {
      env,
      cwd: project,
    });
    probe = JSON.parse(probed.stdout);
    doctor = JSON.parse(cairnCli(['doctor', '--json']).stdout);
    const driven = await session.driveSession({
      home,
      cwd: project,
      env,
      sessionKey: 'agent:main:cairn-e2e',
      message: PROMPT,
      followUp: FOLLOW_UP,
    });
    gatewayLog = driven.gatewayLog();
    cairn = await openCairn(project, { env: {} });
  }, 600_000);

  afterAll(async () => {
    cairn?.closeWorking();
    await server?.close();
    await temp?.cleanup();
  });

  const nodes = () =>
    cairn
      .threads('openclaw')
      .flatMap((thread) => thread.lineage)
      .map((id) => cairn.expand(id, 'openclaw'));

  it('`cairn install openclaw` links a plugin OpenClaw loads, and doctor agrees', () => {
    expect(gatewayLog).not.toMatch(/plugin not found/i);
    const status = doctor.harnesses.filter((entry) => entry.harness === 'openclaw');
    expect(status).toEqual([expect.objectContaining({ installed: true, problems: [] })]);
  });

  it('openclaw mcp probe sees the Cairn server and its tools', () => {
    expect(probe.tools).toContain('cairn__memory_add');
    expect(probe.tools).toContain('cairn__memory_search');
  });

  it('injects the memory Cairn holds into the model request', () => {
    // The prompt asks which staging cluster: its pack, returned as prependContext, carries the unit.
    const injected = server
      .requestsContaining(PROMPT)
      .filter((request) => request.text.includes('## Cairn context pack'));
    expect(injected.length).toBeGreaterThan(0);
    expect(injected[0]!.text).toContain(SEED);
    // A context pack naming its stored receipt (`cairn pack --last`).
    expect(injected[0]?.text).toMatch(/cairn:pack:start[\s\S]*?Receipt pack-[0-9a-f]{8}/);
  });

  it("injects the prompt's recall into the model request", () => {
    // The unit memory_add wrote in the first turn, recalled for the second
    // prompt and returned as prependContext.
    const recalled = server
      .requestsContaining(FOLLOW_UP)
      .filter((request) => request.text.includes('### Long-term memory'));
    expect(recalled.length).toBeGreaterThan(0);
    expect(recalled[0]?.text).toMatch(
      /### Long-term memory\n- \[approved · unit UNIT:[^\]]*\] The deploy target is kestrel-prod\./,
    );
  });

  it('records the prompt and the tool call in the lineage transcript', () => {
    const entries = nodes().flatMap((view) => view.transcript?.entries ?? []);
    expect(entries.some((e) => e.role === 'user' && e.text.includes('kestrel-prod'))).toBe(true);
    expect(entries.some((e) => e.role === 'tool' && e.text.includes('kestrel-prod'))).toBe(true);
  });

  it("adds the unit through the agent's memory_add call to today's daily file", async () => {
    const units = await cairn.list();
    const added = units.find((unit) => unit.text.includes('deploy target is kestrel-prod'));
    expect(added?.path).toMatch(/^\d{4}-\d{2}-\d{2}\.md$/);
  });

  it("keeps OpenClaw's compaction summary in a compaction node", () => {
    const compaction = nodes().find((view) => view.node.kind === 'compaction');
    expect(compaction?.node.text).toContain('kestrel-prod');
    // before_compaction (degraded: observe-only) marked the boundary in the transcript.
    const entries = compaction?.transcript?.entries ?? [];
    expect(
      entries.some((entry) => entry.role === 'system' && entry.text.startsWith('pre-compaction')),
      JSON.stringify(entries),
    ).toBe(true);
  });

  it('writes a session summary and refreshes the head of MEMORY.md', async () => {
    expect(nodes().some((view) => view.node.kind === 'session_summary')).toBe(true);
    const head = await readFile(join(project, '.cairn', 'memory', 'MEMORY.md'), 'utf8');
    expect(head).toContain(HEAD_START_MARKER);
    expect(head).not.toBe(headBefore);
  });
});
