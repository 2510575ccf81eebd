import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Cairn, findRunDigest, openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenclawDeliver } from './deliver';
import { finalAnswerOf } from './openclaw-answer';

/*
 * The run digest's outcome from OpenClaw's agent_end messages. The fixture
 * is a real agent_end of openclaw 2026.9.6 (scripts/capture-agent-end.mjs):
 * the prompt, a memory_add tool call, its result, then the answer in text.
 */

interface AgentEnd {
  payload: { event: { messages: unknown[]; success: boolean }; ctx: Record<string, string> };
}
const ANSWER = 'Noted: the deploy target is kestrel-prod.';
let agentEnd: AgentEnd;
let temp: TempProject;
let cairn: Cairn;

beforeEach(async () => {
  const path = fileURLToPath(new URL('../fixtures/answers/agent-end.json', import.meta.url));
  agentEnd = JSON.parse(await readFile(path, 'utf8')) as AgentEnd;
  temp = await makeTempProject('cairn-openclaw-answer-');
  cairn = await openCairn(temp.root, { env: {} });
  await cairn.init();
});
afterEach(async () => {
  cairn.closeWorking();
  await temp.cleanup();
});

describe('finalAnswerOf', () => {
  it('takes the last answer; null for an unanswered prompt or a last tool call; undefined without a prompt', () => {
    const { messages } = agentEnd.payload.event;
    expect(finalAnswerOf(messages)).toBe(ANSWER);
    expect(finalAnswerOf(messages.slice(0, 1))).toBeNull();
    expect(finalAnswerOf(messages.slice(0, 2))).toBeNull();
    expect(finalAnswerOf([])).toBeUndefined();
    expect(finalAnswerOf([{ role: 'user', runtimeContextCarrier: true, content: 'ctx' }])).toBe(
      undefined,
    );
  });
});

describe('agent_end with the run messages (run digests)', () => {
  const run = async (event: Record<string, unknown>) => {
    const deliver = createOpenclawDeliver();
    const context = { lifecycle: cairn.lifecycle, env: {} };
    const { ctx } = agentEnd.payload;
    await deliver(
      {
        hookEvent: 'before_prompt_build',
        payload: { event: { prompt: 'Remember that the deploy target is kestrel-prod.' }, ctx },
      },
      context,
    );
    await deliver({ hookEvent: 'agent_end', payload: { event, ctx } }, context);
    return findRunDigest(temp.root, ctx.sessionId!, ['openclaw']).digest;
  };

  it("reads the agent's answer: the run is not abandoned", async () => {
    const digest = await run(agentEnd.payload.event);
    expect(digest).toMatchObject({
      outcome: 'succeeded',
      outcomeReason: 'the agent answered; no tool ran',
    });
  });

  it('without the messages (no conversation access) the outcome is unknown', async () => {
    expect((await run({ success: true })).outcome).toBe('unknown');
  });
});
