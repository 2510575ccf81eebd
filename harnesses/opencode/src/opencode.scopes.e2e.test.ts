import { openCairn } from '@cairn/engine';
import { type ModelServer, startModelServer } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpencodeHarness } from './opencode-harness';
import {
  createSandbox,
  installInProject,
  type OpencodeServer,
  opencodeBinary,
  runPrompt,
  type Sandbox,
  startServer,
} from './testing/opencode-sandbox';

/**
 * Cairn installed at the project scope (the committed loader) and at the
 * user scope (a plugin entry in ~/.config/opencode/opencode.json): OpenCode
 * loads the plugin twice. The second copy stands down, so one session gets
 * each pack once and its prompt is stored once.
 */
const binary = opencodeBinary();
if (!binary)
  console.warn('skipping the OpenCode scopes e2e: the pinned opencode-ai binary is missing');

const SEED = 'The OpenCode scopes project deploys from the heron branch.';
const PROMPT = 'Which branch do we deploy from? (scopes e2e)';
const FACT = 'Scopes e2e: the release is cut on Fridays.';
const PACK = '## Cairn context pack';
const AGENT = 'opencode';
const TIMEOUT = 180_000;

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe.skipIf(!binary)('OpenCode e2e: Cairn installed at both scopes', () => {
  let sandbox: Sandbox;
  let model: ModelServer;
  let server: OpencodeServer | undefined;

  beforeAll(async () => {
    sandbox = await createSandbox();
    // A tool call: `opencode run --format json` prints no event for a text-only answer.
    model = await startModelServer({
      text: 'Noted.',
      toolCalls: [{ tool: /memory_add/, input: { text: FACT, category: 'decision' } }],
    });
    await installInProject(sandbox, model.url, [SEED]);
    const user = await createOpencodeHarness().install({
      scope: 'user',
      projectRoot: sandbox.project,
      homeDir: sandbox.home,
      dryRun: false,
      cairnCommand: ['cairn'],
      env: sandbox.env,
    });
    expect(user.notes.join('\n')).toContain('also installed at the project scope');
  }, TIMEOUT);

  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await sandbox?.cleanup();
  });

  it('injects each pack once and stores the prompt once', { timeout: TIMEOUT }, async () => {
    server = await startServer(sandbox);
    const session = await runPrompt(sandbox, server, PROMPT);
    const requests = model.requestsContaining(SEED);
    expect(requests.length).toBeGreaterThan(0);
    // Every pack in the request is a distinct one (a second copy would repeat them).
    const body = JSON.stringify(requests[0]!.body);
    const receipts = new Set(body.match(/Receipt pack-[0-9a-f]{8}/g) ?? []);
    expect(occurrences(body, PACK)).toBe(receipts.size);
    expect(occurrences(body, PACK)).toBeLessThanOrEqual(2);
    // The prompt reached the lineage once.
    const prompts = await vi.waitFor(
      async () => {
        const memory = await openCairn(sandbox.project, { env: {} });
        try {
          const nodes = memory
            .threads(AGENT)
            .flatMap((thread) => thread.lineage)
            .map((id) => memory.expand(id, AGENT))
            .filter((view) => view.node.sessionKey === session);
          expect(nodes.length).toBeGreaterThan(0);
          return nodes
            .flatMap((view) => view.transcript?.entries ?? [])
            .filter((entry) => entry.role === 'user' && entry.text.includes(PROMPT));
        } finally {
          memory.closeWorking();
        }
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(prompts).toHaveLength(1);
  });
});
