import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openLineageStore } from '../lineage';
import { type ChatTestServer, completion, startChatServer } from '../summaries/chat-server.fixture';
import { DEFERRED_REASON } from './session-summaries';

const modelReply = {
  text: '## Status\nRunbook drafted by the model.',
  status: 'Runbook drafted; review pending.',
  decisions: ['Deploy on Fridays only'],
  commitments: [],
  blockers: [],
  nextSteps: ['Review the runbook'],
  files: [],
  commands: [],
};

let project: TempProject;
let server: ChatTestServer;
let down: boolean;
let clock: number;
const cairns: Cairn[] = [];

beforeEach(async () => {
  project = await makeTempProject();
  clock = Date.parse('2026-05-01T09:00:00.000Z');
  down = false;
  server = await startChatServer(() =>
    down ? { status: 503, body: { error: 'down' } } : completion(JSON.stringify(modelReply)),
  );
});
afterEach(async () => {
  for (const cairn of cairns.splice(0)) cairn.closeWorking();
  await server.close();
  await project.cleanup();
});

async function open(env: Record<string, string> = {}, apiKeyEnv = ''): Promise<Cairn> {
  const cairn = await openCairn(project.root, {
    env,
    homeDir: join(project.root, 'home'),
    overrides: {
      timezone: 'UTC',
      summarizer: {
        provider: 'openai',
        baseUrl: server.baseUrl,
        model: 'test-model',
        apiKeyEnv,
      },
    },
    now: () => {
      clock += 60_000;
      return new Date(clock);
    },
  });
  cairns.push(cairn);
  return cairn;
}

const S1 = { agentId: 'claude', sessionKey: 's1', cwd: '', harness: 'claude-code' };

async function endSession(cairn: Cairn, deferSummary = false) {
  await cairn.init();
  await cairn.lifecycle.sessionStart({ ...S1, cwd: project.root });
  await cairn.lifecycle.userPromptSubmit({ ...S1, prompt: 'Decision: deploy on Fridays only.' });
  const end = await cairn.lifecycle.sessionEnd({ ...S1, deferSummary });
  expect(end.failed).toBeUndefined();
  return end;
}

function retries() {
  const store = openLineageStore(project.root);
  try {
    return store.dueSummaryRetries('claude', new Date(clock + 365 * 86_400_000));
  } finally {
    store.close();
  }
}

describe('session summaries with a model summarizer', () => {
  it('a deferred session end writes the extractive summary now and the model summary at the next start', async () => {
    const cairn = await open();
    const end = await endSession(cairn, true);
    expect(server.requests).toHaveLength(0);
    expect(cairn.expand(end.nodeId!, 'claude').node.source).toBe('extractive');
    expect(retries()).toMatchObject([{ sessionKey: 's1', lastError: DEFERRED_REASON }]);

    await cairn.lifecycle.sessionStart({ ...S1, sessionKey: 's2', cwd: project.root });
    expect(server.requests).toHaveLength(1);
    expect(retries()).toEqual([]);
    const nodes = cairn.expand(end.nodeId!, 'claude').siblings;
    expect(nodes.map((n) => n.source)).toContain('openai:test-model');
    // Append-only: the extractive node is still there.
    expect(cairn.expand(end.nodeId!, 'claude').node.text).not.toBe('');
  });

  it('a model that is down costs quality, not the summary, and is retried until it answers', async () => {
    down = true;
    const cairn = await open();
    const end = await endSession(cairn);
    expect(cairn.expand(end.nodeId!, 'claude').node.source).toBe('extractive');
    const [retry] = retries();
    expect(retry).toMatchObject({ sessionKey: 's1', attempts: 1 });
    expect(retry!.lastError).toContain('openai:test-model');

    // Still down at the next start: one more attempt, still recorded.
    clock += 10 * 60_000;
    await cairn.lifecycle.sessionStart({ ...S1, sessionKey: 's2', cwd: project.root });
    expect(retries()).toMatchObject([{ sessionKey: 's1', attempts: 2 }]);

    down = false;
    clock += 60 * 60_000;
    const start = await cairn.lifecycle.sessionStart({
      ...S1,
      sessionKey: 's3',
      cwd: project.root,
    });
    expect(start.failed).toBeUndefined();
    expect(retries()).toEqual([]);
    expect(cairn.expand(end.nodeId!, 'claude').siblings.map((n) => n.source)).toContain(
      'openai:test-model',
    );
  });

  it('with the extractive default nothing is ever deferred or retried', async () => {
    const cairn = await openCairn(project.root, {
      env: {},
      homeDir: join(project.root, 'home'),
      overrides: { timezone: 'UTC' },
    });
    cairns.push(cairn);
    await endSession(cairn, true);
    expect(retries()).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("reads the model's key from the env the project was opened with, not process.env", async () => {
    const name = 'CAIRN_SUMMARY_TEST_KEY';
    expect(process.env[name]).toBeUndefined();
    const cairn = await open({ [name]: 'sk-from-open-env' }, name);
    await endSession(cairn, true);
    const next = await cairn.lifecycle.sessionStart({ ...S1, sessionKey: 's2', cwd: project.root });
    expect(next.failed).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-open-env');
  });
});
