import { type Cairn, openCairn } from '@cairn/engine';
import { expectCode, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenclawDeliver, createOpenclawDeliverState } from './deliver';

let temp: TempProject;
let cairn: Cairn;
const ctx = {
  agentId: 'main',
  sessionId: 'oc-session-1',
  runId: 'run-1',
  sessionKey: 'agent:main:x',
};

beforeEach(async () => {
  temp = await makeTempProject('cairn-openclaw-deliver-');
  cairn = await openCairn(temp.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
});
afterEach(async () => {
  cairn.closeWorking();
  await temp.cleanup();
});

describe('openclaw deliver', () => {
  it('starts an unseen session at its first prompt build and injects its head on every build', async () => {
    const deliver = createOpenclawDeliver();
    const context = { lifecycle: cairn.lifecycle, env: { CAIRN_AGENT_ID: 'agent-7' } };
    const build = (prompt: string) =>
      deliver(
        { hookEvent: 'before_prompt_build', payload: { event: { prompt, messages: [] }, ctx } },
        context,
      );
    const first = await build('what is the staging cluster called?');
    expect(first.calls).toEqual(['session-start', 'user-prompt-submit']);
    expect(first).toMatchObject({ agentId: 'agent-7', sessionKey: 'oc-session-1' });
    const output = first.output as { appendSystemContext?: string; prependContext?: string };
    // The prompt's pack carries the unit it asks about; the head (none yet here) goes to the system.
    expect(output.prependContext).toContain('kestrel-stage');
    const second = await build('and the next step?');
    expect(second.calls).toEqual(['user-prompt-submit']);
    expect(
      (second.output as { appendSystemContext?: string } | undefined)?.appendSystemContext,
    ).toBe(output.appendSystemContext);
  });

  it('gives the head a session_start computed to a racing prompt build of an instance sharing its state', async () => {
    // The gateway fires session_start through one plugin instance and the
    // run's prompt build through another; Cairn injects a memory once per
    // session, so only the shared state still holds it.
    const state = createOpenclawDeliverState();
    const gateway = createOpenclawDeliver(state);
    const run = createOpenclawDeliver(state);
    const context = { lifecycle: cairn.lifecycle, env: {} };
    const sessionStart = {
      hookEvent: 'session_start',
      payload: {
        event: { sessionId: 'oc-session-1', sessionKey: 'agent:main:x' },
        ctx: { sessionId: 'oc-session-1', agentId: 'main' },
      },
    };
    const build = {
      hookEvent: 'before_prompt_build',
      payload: { event: { prompt: 'which cluster?', messages: [] }, ctx },
    };
    const [started, built] = await Promise.all([
      gateway(sessionStart, context),
      run(build, context),
    ]);
    expect(started.calls).toEqual(['session-start']);
    expect(built.calls).toEqual(['user-prompt-submit']);
    const both = built.output as { appendSystemContext?: string; prependContext?: string };
    expect(`${both.prependContext}\n${both.appendSystemContext}`).toContain('kestrel-stage');
    const alone = await createOpenclawDeliver()(build, context);
    expect(alone.calls).toEqual(['session-start', 'user-prompt-submit']);
    expect(alone.output).toBeUndefined();
  });

  it('matches a tool call without a session id to its run, and ends a session once per activity', async () => {
    const deliver = createOpenclawDeliver();
    const context = { lifecycle: cairn.lifecycle, env: {} };
    await deliver(
      { hookEvent: 'before_prompt_build', payload: { event: { prompt: 'hi' }, ctx } },
      context,
    );
    const tool = await deliver(
      {
        hookEvent: 'after_tool_call',
        payload: {
          event: { toolName: 'exec', params: { command: 'ls' }, result: 'a.txt' },
          ctx: { runId: 'run-1', toolName: 'exec' },
        },
      },
      context,
    );
    expect(tool).toMatchObject({ sessionKey: 'oc-session-1', calls: ['tool-use'] });
    const agentEnd = { hookEvent: 'agent_end', payload: { event: { success: true }, ctx } };
    const sessionEnd = {
      hookEvent: 'session_end',
      payload: { event: { sessionId: 'oc-session-1', reason: 'shutdown' }, ctx },
    };
    expect((await deliver(agentEnd, context)).calls).toEqual(['session-end']);
    expect((await deliver(sessionEnd, context)).calls).toEqual([]);
  });

  it('carries a known fix for a failing tool into the next prompt build, once', async () => {
    const deliver = createOpenclawDeliver();
    const context = { lifecycle: cairn.lifecycle, env: {} };
    const build = (sessionId: string, prompt: string) =>
      deliver(
        {
          hookEvent: 'before_prompt_build',
          payload: { event: { prompt }, ctx: { ...ctx, sessionId, runId: sessionId } },
        },
        context,
      );
    const exec = (sessionId: string, command: string, text: string, exitCode: number) =>
      deliver(
        {
          hookEvent: 'after_tool_call',
          payload: {
            event: {
              toolName: 'exec',
              params: { command },
              result: { content: [{ type: 'text', text }], details: { exitCode } },
            },
            ctx: { sessionId, runId: sessionId },
          },
        },
        context,
      );
    const missing = 'bash: line 1: jq: command not found';
    await build('s-1', 'count the users');
    await exec('s-1', 'jq length users.json', missing, 127);
    await exec('s-1', 'apt-get install -y jq', 'Setting up jq (1.7.1-3) ...', 0);
    await exec('s-1', 'jq length users.json', '42', 0);
    await build('s-2', 'count the admins');
    await exec('s-2', 'jq length admins.json', missing, 127);
    // The run ends (agent_end) before the next prompt: the fix still waits for it.
    await deliver(
      {
        hookEvent: 'agent_end',
        payload: { event: { success: false }, ctx: { ...ctx, sessionId: 's-2' } },
      },
      context,
    );
    const next = await build('s-2', 'try again');
    const prepend = (next.output as { prependContext?: string }).prependContext ?? '';
    expect(prepend).toContain('Known fix for this error');
    expect(prepend).toContain('ran `apt-get install -y jq`');
    const after = await build('s-2', 'and now?');
    expect(
      (after.output as { prependContext?: string } | undefined)?.prependContext ?? '',
    ).not.toContain('Known fix');
  });

  it('refuses unknown hooks and payloads without a session with INVALID_INPUT', async () => {
    const deliver = createOpenclawDeliver();
    const context = { lifecycle: cairn.lifecycle, env: {} };
    await expectCode(deliver({ hookEvent: 'llm_input', payload: {} }, context), 'INVALID_INPUT');
    await expectCode(
      deliver(
        {
          hookEvent: 'after_tool_call',
          payload: { event: { toolName: 'exec' }, ctx: { runId: 'unknown' } },
        },
        context,
      ),
      'INVALID_INPUT',
    );
  });
});
