import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cairn, findRunDigest, openCairn } from '@cairn/engine';
import { expectCode, makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeCodeHarness } from './claude-code-harness';
import { readTranscriptFinalAnswer } from './transcript-answer';

const harness = createClaudeCodeHarness();
let project: TempProject;
let cairn: Cairn;

function payload(hook: string, fields: Record<string, unknown>) {
  return {
    session_id: 'sess-1',
    transcript_path: '/home/u/.claude/projects/-p/sess-1.jsonl',
    cwd: project.root,
    hook_event_name: hook,
    // Claude Code adds fields from version to version; they must not break parsing.
    prompt_id: 'p-1',
    ...fields,
  };
}

const deliver = (hookEvent: string, fields: Record<string, unknown>, env = {}) =>
  harness.deliver(
    { hookEvent, payload: payload(hookEvent, fields) },
    { lifecycle: cairn.lifecycle, env },
  );

beforeEach(async () => {
  project = await makeTempProject('cairn-cc-deliver-');
  cairn = await openCairn(project.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
});
afterEach(async () => {
  cairn.closeWorking();
  await project.cleanup();
});

describe('deliver', () => {
  it('starts a session for every source, compact included, and the prompt finds the unit', async () => {
    for (const source of ['startup', 'resume', 'clear', 'compact', 'fork']) {
      const result = await deliver('SessionStart', { source, model: 'x', session_id: source });
      expect(result).toMatchObject({
        agentId: 'claude-code',
        sessionKey: source,
        calls: ['session-start'],
      });
      // A new thread has no state to be relevant to: nothing, or a pack of the heads.
      const output = result.output as { hookSpecificOutput: Record<string, string> } | undefined;
      if (output) expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
      const asked = await deliver('UserPromptSubmit', {
        prompt: 'which staging cluster?',
        session_id: source,
      });
      const answer = asked.output as { hookSpecificOutput: Record<string, string> };
      expect(answer.hookSpecificOutput.additionalContext).toContain('kestrel-stage');
    }
  });

  it('maps prompt, tool use, compaction and session end onto the lifecycle', async () => {
    await deliver('SessionStart', { source: 'startup' });
    const prompt = await deliver('UserPromptSubmit', { prompt: 'which staging cluster?' });
    expect(prompt.calls).toEqual(['user-prompt-submit']);
    if (prompt.output !== undefined) {
      expect(prompt.output).toMatchObject({
        hookSpecificOutput: { hookEventName: 'UserPromptSubmit' },
      });
    }
    const tool = await deliver('PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'kubectl get nodes' },
      tool_response: { stdout: 'node-1 Ready' },
      tool_use_id: 't-1',
    });
    expect(tool).toMatchObject({ calls: ['tool-use'] });
    expect(tool.output).toBeUndefined();
    const pre = await deliver('PreCompact', { trigger: 'manual', custom_instructions: null });
    expect(pre.calls).toEqual(['pre-compaction']);
    const post = await deliver('PostCompact', {
      trigger: 'manual',
      compact_summary: 'Asked about kestrel.',
    });
    expect(post.calls).toEqual(['compaction-complete']);
    const end = await deliver('SessionEnd', { reason: 'other' });
    expect(end.calls).toEqual(['session-end']);

    // The next session's PreCompact hands Claude Code plain text for its compaction instructions.
    await deliver('SessionStart', { source: 'startup', session_id: 'sess-2' });
    const next = await deliver('PreCompact', { trigger: 'auto', session_id: 'sess-2' });
    expect(typeof next.output).toBe('string');
    expect(next.output).toContain('Cairn context pack: keep across compaction');
    const threads = cairn.threads('claude-code');
    expect(threads).toHaveLength(1);
  });

  it('records a failed call (PostToolUseFailure) and answers a known error with its fix pattern', async () => {
    const failing = (session: string, dir: string) =>
      deliver('PostToolUseFailure', {
        session_id: session,
        tool_name: 'Bash',
        tool_input: { command: 'node main.js' },
        tool_use_id: 't-1',
        error: `Exit code 1\nError: Cannot find module './lib/greet'\nRequire stack:\n- ${dir}/main.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1228:15)`,
      });
    const first = await failing('sess-1', '/w/one');
    expect(first).toMatchObject({ calls: ['tool-use'] });
    expect(first.output).toBeUndefined();
    await deliver('PostToolUse', {
      tool_name: 'Write',
      tool_input: { file_path: '/w/one/lib/greet.js', content: 'x' },
      tool_response: { type: 'create' },
    });
    await deliver('PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'node main.js' },
      tool_response: { stdout: 'hello', stderr: '' },
    });
    const again = await failing('sess-2', '/w/two');
    const output = again.output as { hookSpecificOutput: Record<string, string> };
    expect(output.hookSpecificOutput.hookEventName).toBe('PostToolUseFailure');
    expect(output.hookSpecificOutput.additionalContext).toContain(
      'Candidate fix (not verified yet)',
    );
    expect(output.hookSpecificOutput.additionalContext).toContain('edited `/w/one/lib/greet.js`');
    // The user stopping a call is not a failure of the tool.
    const stopped = await deliver('PostToolUseFailure', {
      session_id: 'sess-3',
      tool_name: 'Bash',
      tool_input: { command: 'node main.js' },
      error: 'Interrupted by user',
      is_interrupt: true,
    });
    expect(stopped.output).toBeUndefined();
  });

  it('uses CAIRN_AGENT_ID when set', async () => {
    const result = await deliver(
      'SessionStart',
      { source: 'startup' },
      { CAIRN_AGENT_ID: 'reviewer' },
    );
    expect(result.agentId).toBe('reviewer');
  });

  it('refuses bad payloads with INVALID_INPUT and writes nothing', async () => {
    const before = await snapshotTree(project.root);
    const bad: [string, unknown][] = [
      ['Stop', payload('Stop', {})],
      ['SessionStart', payload('UserPromptSubmit', { prompt: 'x', source: 'startup' })],
      ['UserPromptSubmit', payload('UserPromptSubmit', { prompt: 42 })],
      ['PostCompact', payload('PostCompact', { trigger: 'manual' })],
      ['SessionEnd', { hook_event_name: 'SessionEnd', reason: 'other' }],
      ['PostToolUse', 'not an object'],
    ];
    for (const [hookEvent, body] of bad) {
      await expectCode(
        harness.deliver({ hookEvent, payload: body }, { lifecycle: cairn.lifecycle, env: {} }),
        'INVALID_INPUT',
      );
    }
    expect(await snapshotTree(project.root)).toEqual(before);
  });
});

describe('the final answer in the transcript (run digests)', () => {
  // A real transcript: a Bash call, then an answer in text (scripts/capture-answer-transcript.mjs).
  const answered = fileURLToPath(new URL('../fixtures/transcript/answered.jsonl', import.meta.url));
  const ANSWER = 'The parser re-reads the file for every line; read it once into a buffer.';

  /** The transcript up to its prompt: the session ended before the model answered. */
  async function unanswered(): Promise<string> {
    const lines = (await readFile(answered, 'utf8')).trim().split('\n');
    const prompt = lines.findIndex((line) => JSON.parse(line).type === 'user');
    const path = join(project.root, 'unanswered.jsonl');
    await writeFile(path, `${lines.slice(0, prompt + 1).join('\n')}\n`);
    return path;
  }

  it('reads the last answer, null when the prompt has none, nothing when it cannot tell', async () => {
    expect(await readTranscriptFinalAnswer(answered)).toBe(ANSWER);
    // JSON lines written by another writer, with a space after each colon, say the same.
    const spaced = join(project.root, 'spaced.jsonl');
    const lines = (await readFile(answered, 'utf8')).trim().split('\n');
    await writeFile(
      spaced,
      `${lines.map((line) => JSON.stringify(JSON.parse(line)).replaceAll('":', '": ')).join('\n')}\n`,
    );
    expect(await readTranscriptFinalAnswer(spaced)).toBe(ANSWER);
    expect(await readTranscriptFinalAnswer(await unanswered())).toBeNull();
    expect(await readTranscriptFinalAnswer(join(project.root, 'missing.jsonl'))).toBeUndefined();
  });

  const run = async (transcript: string) => {
    await deliver('SessionStart', { source: 'startup', session_id: 'ans' });
    await deliver('UserPromptSubmit', { prompt: 'Why is the parser slow?', session_id: 'ans' });
    await deliver('SessionEnd', {
      reason: 'other',
      session_id: 'ans',
      transcript_path: transcript,
    });
    return findRunDigest(project.root, 'ans', ['claude-code']).digest;
  };

  it('digests an answered run from its transcript, an unreadable one as unknown', async () => {
    expect(await run(answered)).toMatchObject({
      outcome: 'succeeded',
      outcomeReason: 'the agent answered; no tool ran',
    });
  });

  it('leaves the outcome unknown when the transcript cannot be read', async () => {
    expect((await run(join(project.root, 'missing.jsonl'))).outcome).toBe('unknown');
  });

  it('calls the run abandoned when the transcript shows the prompt unanswered', async () => {
    expect((await run(await unanswered())).outcome).toBe('abandoned');
  });
});
