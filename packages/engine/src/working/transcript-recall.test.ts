import { join } from 'node:path';
import { closeSearchIndexes } from '@cairn/backend-file';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';
import { closedBaseUrl, startChatServer } from '../summaries/chat-server.fixture';
import { recentLifecycleFailures } from './lifecycle-log';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(async () => {
  closeSearchIndexes();
  await project.cleanup();
});

/** Two concepts and a constant: enough for a paraphrase to land near its original. */
const conceptVector = (text: string) => [
  /car|automobile|vehicle|parked/i.test(text) ? 1 : 0,
  /pizza|lunch|dinner/i.test(text) ? 1 : 0,
  0.1,
];

const embedderEnv = (baseUrl: string) => ({
  CAIRN_EMBEDDER_PROVIDER: 'openai',
  CAIRN_EMBEDDER_BASE_URL: baseUrl,
  CAIRN_EMBEDDER_MODEL: 'concepts',
  CAIRN_EMBEDDER_DIMENSIONS: '3',
  CAIRN_EMBEDDER_API_KEY_ENV: '',
});

/** An earlier session of the thread mentions the automobile; a later one asks about the car. */
async function askAgain(env: Record<string, string>): Promise<string> {
  const cairn = await openCairn(project.root, { env, homeDir: join(project.root, 'home') });
  await cairn.init();
  const base = { agentId: 'claude', harness: 'claude-code', cwd: project.root };
  const first = { ...base, sessionKey: 's1', threadKey: 'topic-errands' };
  await cairn.lifecycle.sessionStart(first);
  await cairn.lifecycle.userPromptSubmit({
    ...first,
    prompt: 'My automobile sits in garage level three.',
  });
  await cairn.lifecycle.userPromptSubmit({ ...first, prompt: 'Order pizza for the team.' });
  await cairn.lifecycle.sessionEnd(first);
  const second = { ...base, sessionKey: 's2', threadKey: 'topic-errands' };
  await cairn.lifecycle.sessionStart(second);
  const asked = await cairn.lifecycle.userPromptSubmit({
    ...second,
    prompt: 'car location?',
  });
  cairn.closeWorking();
  return asked.inject;
}

describe('transcript recall by meaning', () => {
  it('finds an earlier entry by meaning when no word matches, with an embedder configured', async () => {
    const server = await startChatServer((request) => ({
      status: 200,
      body: {
        data: (request.body.input as string[]).map((text, index) => ({
          index,
          embedding: conceptVector(text),
        })),
      },
    }));
    try {
      const inject = await askAgain(embedderEnv(server.baseUrl));
      expect(inject).toContain('My automobile sits in garage level three.');
      expect(inject).not.toContain('pizza');
    } finally {
      await server.close();
    }
  });

  it('is full-text only without an embedder: the paraphrase finds nothing', async () => {
    expect(await askAgain({})).not.toContain('automobile');
  });

  // Slow by design: the embedder's retries back off (250, 500, 1000 ms) before recall falls back.
  it('falls back to full text when the embedder is down, and logs why', {
    timeout: 30_000,
  }, async () => {
    const inject = await askAgain(embedderEnv(await closedBaseUrl()));
    expect(inject).not.toContain('automobile');
    const failures = recentLifecycleFailures(project.root).filter(
      (failure) => failure.event === 'transcript-recall',
    );
    expect(failures[0]?.message).toMatch(/full-text only/);
  });
});
