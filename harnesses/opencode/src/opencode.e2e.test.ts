import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { openCairn } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  compact,
  createSandbox,
  deleteSession,
  installInProject,
  type OpencodeServer,
  opencode,
  opencodeBinary,
  runPrompt,
  type Sandbox,
  startServer,
} from './testing/opencode-sandbox';

const binary = opencodeBinary();
if (!binary)
  console.warn('skipping the OpenCode e2e test: the pinned opencode-ai binary is not installed');

const SEED = 'The staging cluster is called kestrel-stage.';
const FACT = 'The deploy target is fly.io';
const SUMMARY = 'Compaction summary: the deploy target is fly.io; next, write the deploy script.';
const TIMEOUT = 180_000;
const AGENT = 'opencode';

describe.skipIf(!binary)('OpenCode e2e (opencode-ai 1.18.33)', () => {
  let sandbox: Sandbox;
  let model: ModelServer;
  let server: OpencodeServer | undefined;
  let session = '';
  const cairn = () => openCairn(sandbox.project, { env: {} });
  /** Reads the agent's temporal nodes through the engine, newest first. */
  const nodes = async () => {
    const memory = await cairn();
    try {
      const lineage = memory.threads(AGENT).flatMap((thread) => thread.lineage);
      return lineage.map((id) => memory.expand(id, AGENT));
    } finally {
      memory.closeWorking();
    }
  };
  const waitFor = <T>(check: () => T | Promise<T>) =>
    vi.waitFor(check, { timeout: 60_000, interval: 200 });

  beforeAll(async () => {
    sandbox = await createSandbox();
    model = await startModelServer({
      text: 'Noted.',
      toolCalls: [{ tool: /memory_add/, input: { text: FACT, category: 'decision' } }],
      compactionSummary: SUMMARY,
    });
    // With the user's own settings in opencode.json, which install must keep.
    const report = await installInProject(sandbox, model.url, [SEED]);
    // opencode.json keeps the user's settings plus `cairn mcp`; the plugin comes
    // through the committed loader, which finds the `cairn` on PATH.
    expect(report.changes.map((c) => c.action)).toEqual(['update', 'create']);
    const committed = await readFile(join(sandbox.project, 'opencode.json'), 'utf8');
    expect(JSON.parse(committed)).not.toHaveProperty('plugin');
    expect(committed).not.toContain(dirname(sandbox.home));
  }, TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await sandbox?.cleanup();
  });

  it('`opencode mcp list` reports the cairn server connected', { timeout: TIMEOUT }, async () => {
    const listing = stripVTControlCharacters(await opencode(sandbox, ['mcp', 'list']));
    expect(listing).toMatch(/cairn\s+connected/);
  });

  it('injects at start, captures the prompt and the tool call, and ends at idle', {
    timeout: TIMEOUT,
  }, async () => {
    server = await startServer(sandbox);
    session = await runPrompt(
      sandbox,
      server,
      'Please remember: the deploy target is fly.io. Which staging cluster do we deploy to?',
    );
    // The prompt asks about the seeded unit: the pack relevant to it reached the model request.
    const injected = model.requestsContaining(SEED);
    expect(injected.length).toBeGreaterThan(0);
    expect(JSON.stringify(injected[0]!.body)).toContain('## Cairn context pack');
    // A context pack naming its stored receipt (`cairn pack --last`).
    expect(JSON.stringify(injected[0]!.body)).toMatch(
      /cairn:pack:start.*?Receipt pack-[0-9a-f]{8}/,
    );
    // memory_add through the MCP server (cairn_memory_add): the unit is in today's daily file.
    const memory = await cairn();
    const units = await memory.list();
    memory.closeWorking();
    expect(units.find((u) => u.text === FACT)?.path).toMatch(/^\d{4}-\d{2}-\d{2}\.md$/);
    // Idle ended the session: a session_summary node over the live transcript.
    const summary = await waitFor(async () => {
      const found = (await nodes()).find(
        (n) => n.node.kind === 'session_summary' && n.node.sessionKey === session,
      );
      expect(found).toBeDefined();
      return found!;
    });
    const entries = summary.transcript?.entries ?? [];
    expect(entries.find((e) => e.role === 'user')?.text).toContain('deploy target is fly.io');
    expect(entries.find((e) => e.role === 'tool')?.toolName).toBe('cairn_memory_add');
  });

  it('puts the head into the compaction prompt and keeps the harness summary', {
    timeout: TIMEOUT,
  }, async () => {
    expect(session).not.toBe('');
    const before = model.requests.length;
    await compact(server!, session);
    const compaction = await waitFor(async () => {
      const found = (await nodes()).find(
        (n) => n.node.kind === 'compaction' && n.node.sessionKey === session,
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect(compaction.node.text).toContain(SUMMARY);
    // The compaction request carried Cairn's block (head and thread head).
    const compactionRequests = model.requests
      .slice(before)
      .filter((r) => r.text.includes('Cairn context pack: keep across compaction'));
    expect(compactionRequests.length).toBeGreaterThan(0);
  });

  it('ends once more after compaction, refreshes the head, and the next session gets it', {
    timeout: TIMEOUT,
  }, async () => {
    // The idle after compaction (or the delete) ends the session again: a
    // session_summary newer than the compaction node.
    await deleteSession(server!, session);
    const latest = await waitFor(async () => {
      const [newest] = await nodes();
      expect(newest?.node.kind).toBe('session_summary');
      expect(newest?.node.sessionKey).toBe(session);
      return newest!.node.id;
    });
    // Session end writes the node first and then rewrites the head, in the
    // plugin's own process: wait for the second write too.
    await waitFor(async () => {
      const memory = await cairn();
      try {
        // This clone's head (MEMORY.md's region is the team head: docs/TEAMS.md).
        const rendered = memory.localHead();
        expect(rendered).toContain(latest);
      } finally {
        memory.closeWorking();
      }
    });
    // The next session starts with the refreshed head in its system prompt.
    const before = model.requests.length;
    await runPrompt(sandbox, server!, 'What is next?');
    // The refreshed state names the new summary: the thread head says it (the memory head's
    // line that repeats it is left out, nothing twice), with the node to expand.
    expect(model.requests.slice(before).some((r) => r.text.includes(latest))).toBe(true);
  });
});
