import { fileURLToPath } from 'node:url';
import { type Cairn, findRunDigest, openCairn } from '@cairn/engine';
import { loadHarnessFixtures, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverOpencode, finalAnswer } from './deliver';
import type { SessionMessage } from './hook-payloads';

/*
 * The run digest's outcome from the agent's final answer. The messages are
 * the real ones of fixtures/session/05-session-compacted.json (opencode-ai
 * 1.18.33): a prompt, a step of tool calls, the answer "Noted.", then the
 * compaction's own user message and summary.
 */

const fixturesDir = fileURLToPath(new URL('../fixtures/session', import.meta.url));
let messages: SessionMessage[];
let sessionID: string;
let temp: TempProject;
let cairn: Cairn;

beforeEach(async () => {
  const fixtures = await loadHarnessFixtures(fixturesDir);
  const compacted = fixtures.find((f) => f.hookEvent === 'session.compacted')!.payload as {
    messages: SessionMessage[];
    event: { properties: { sessionID: string } };
  };
  messages = compacted.messages;
  sessionID = compacted.event.properties.sessionID;
  temp = await makeTempProject('cairn-opencode-answer-');
  cairn = await openCairn(temp.root, { env: {} });
  await cairn.init();
});
afterEach(async () => {
  cairn.closeWorking();
  await temp.cleanup();
});

const deliver = (hookEvent: string, payload: unknown) =>
  deliverOpencode({ hookEvent, payload }, { lifecycle: cairn.lifecycle, env: {} });

describe('finalAnswer', () => {
  it('takes the last answer, skipping the compaction summary and its user message', () => {
    expect(finalAnswer(messages)).toBe('Noted.');
  });

  it('is null when the last prompt has no answer after it, undefined without a prompt', () => {
    expect(finalAnswer(messages.slice(0, 1))).toBeNull();
    // The prompt, then a step of tool calls only: the agent never answered in text.
    expect(finalAnswer(messages.slice(0, 2))).toBeNull();
    expect(finalAnswer([])).toBeUndefined();
  });
});

describe('session end with the messages (run digests)', () => {
  const run = async (end: Record<string, unknown>) => {
    await deliver('session.created', {
      type: 'session.created',
      properties: { info: { id: sessionID, directory: temp.root } },
    });
    await deliver('chat.message', {
      input: { sessionID },
      output: { parts: [{ type: 'text', text: 'Please remember: the deploy target is fly.io' }] },
    });
    await deliver('session.idle', { type: 'session.idle', properties: { sessionID }, ...end });
    return findRunDigest(temp.root, sessionID, ['opencode']).digest;
  };

  it('an answered run is not abandoned', async () => {
    expect(await run({ messages })).toMatchObject({
      outcome: 'succeeded',
      outcomeReason: 'the agent answered; no tool ran',
    });
  });

  it('without the messages the outcome is unknown', async () => {
    expect((await run({})).outcome).toBe('unknown');
  });

  it('with messages of another shape the session still ends, its outcome unknown', async () => {
    expect((await run({ messages: [{ nope: true }] })).outcome).toBe('unknown');
  });

  it('messages that end on the unanswered prompt make it abandoned', async () => {
    expect((await run({ messages: messages.slice(0, 1) })).outcome).toBe('abandoned');
  });
});
