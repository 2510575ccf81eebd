import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cairn, findRunDigest, openCairn } from '@cairn/engine';
import {
  earlierSession,
  expectCode,
  makeTempProject,
  snapshotTree,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodexHarness } from './codex-harness';
import { readRolloutFinalAnswer } from './rollout-answer';
import { readRolloutSummary, summaryFromCompactedMessage } from './rollout-summary';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const adapter = createCodexHarness();
const fixture = async (name: string) =>
  JSON.parse(await readFile(join(fixtures, 'session', name), 'utf8')) as {
    hookEvent: string;
    payload: Record<string, unknown>;
  };

let temp: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  temp = await makeTempProject('cairn-codex-deliver-');
  cairn = await openCairn(temp.root, { env: {} });
  await cairn.init();
  await cairn.add({ text: 'Deploys of this project go through the kestrel pipeline.' });
});
afterEach(async () => {
  cairn.closeWorking();
  await temp.cleanup();
});

const deliver = (hookEvent: string, payload: unknown, env: Record<string, string> = {}) =>
  adapter.deliver({ hookEvent, payload }, { lifecycle: cairn.lifecycle, env });

describe('deliver', () => {
  it('SessionStart injects the head as additionalContext and keys the session by session_id', async () => {
    const { payload } = await fixture('01-session-start.json');
    // Session start asks with the thread's state: an earlier Codex session left it naming the pipeline.
    await earlierSession(cairn.lifecycle, {
      cwd: temp.root,
      agentId: 'codex',
      prompt: 'Ship the release through the kestrel pipeline.',
      finalAnswer: 'The release is tagged; the kestrel pipeline deploys it tomorrow.',
    });
    const result = await deliver('SessionStart', { ...payload, cwd: temp.root });
    expect(result).toMatchObject({
      agentId: 'codex',
      sessionKey: payload.session_id,
      calls: ['session-start'],
      output: { hookSpecificOutput: { hookEventName: 'SessionStart' } },
    });
    const context = (result.output as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain('Deploys of this project go through the kestrel pipeline.');
  });

  it('CAIRN_AGENT_ID overrides the agent id', async () => {
    const { payload } = await fixture('02-user-prompt-submit.json');
    const result = await deliver('UserPromptSubmit', payload, { CAIRN_AGENT_ID: 'reviewer' });
    expect(result.agentId).toBe('reviewer');
    expect(result.calls).toEqual(['user-prompt-submit']);
  });

  it('PostToolUse records the tool and prints nothing', async () => {
    const { payload } = await fixture('03-post-tool-use.json');
    const result = await deliver('PostToolUse', payload);
    expect(result).toMatchObject({ calls: ['tool-use'], output: undefined });
  });

  it('PostToolUse answers a shell failure met before with its fix pattern as additionalContext', async () => {
    const { payload } = await fixture('03-post-tool-use.json');
    const shell = (session: string, command: string, output: string) =>
      deliver('PostToolUse', {
        ...payload,
        session_id: session,
        tool_name: 'Bash',
        tool_input: { command },
        tool_response: output,
      });
    const failure = (dir: string) =>
      `Exit code: 1\nTraceback (most recent call last):\n  File "${dir}/app.py", line 3, in <module>\n    import requests\nModuleNotFoundError: No module named 'requests'`;
    expect((await shell('s-1', 'python app.py', failure('/w/one'))).output).toBeUndefined();
    await shell(
      's-1',
      'pip install requests',
      'Exit code: 0\nSuccessfully installed requests-2.32.0',
    );
    await shell('s-1', 'python app.py', 'Exit code: 0\nok');
    const again = await shell('s-2', 'python3 app.py', failure('/srv/two'));
    expect(again.output).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse' } });
    const context = (again.output as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain('ran `pip install requests`');
  });

  it('SessionEnd writes the session summary node within the hook (deferred model summary)', async () => {
    const start = await fixture('01-session-start.json');
    await deliver('SessionStart', { ...start.payload, cwd: temp.root });
    const prompt = await fixture('02-user-prompt-submit.json');
    await deliver('UserPromptSubmit', prompt.payload);
    const end = await fixture('07-session-end.json');
    let nodeId: string | undefined;
    const lifecycle = {
      ...cairn.lifecycle,
      sessionEnd: async (input: Parameters<typeof cairn.lifecycle.sessionEnd>[0]) => {
        expect(input.deferSummary).toBe(true);
        const result = await cairn.lifecycle.sessionEnd(input);
        nodeId = result.nodeId;
        return result;
      },
    };
    const result = await adapter.deliver(
      { hookEvent: 'SessionEnd', payload: end.payload },
      { lifecycle, env: {} },
    );
    expect(result.calls).toEqual(['session-end']);
    expect(cairn.expand(nodeId!, 'codex').node.kind).toBe('session_summary');
  });

  it('refuses a payload for another event, a damaged payload and an unknown hook, writing nothing', async () => {
    const { payload } = await fixture('02-user-prompt-submit.json');
    const before = await snapshotTree(temp.root);
    await expectCode(deliver('SessionStart', payload), 'INVALID_INPUT');
    await expectCode(deliver('UserPromptSubmit', { ...payload, prompt: 7 }), 'INVALID_INPUT');
    await expectCode(deliver('Stop', payload), 'INVALID_INPUT');
    expect(await snapshotTree(temp.root)).toEqual(before);
  });
});

describe('readRolloutSummary', () => {
  // The rollout the captured PostCompact fixture names (scripts/capture-fixtures.mjs).
  const rollout = join(
    fixtures,
    'rollout',
    readdirSync(join(fixtures, 'rollout')).find((name) => name.startsWith('rollout-'))!,
  );

  it('reads the summary of the last compacted item, without Codex’s preamble', async () => {
    expect(await readRolloutSummary(rollout)).toBe('CAIRN-SUMMARY: kestrel deploy work');
    const twice = join(temp.root, 'twice.jsonl');
    const line = (message: string) =>
      JSON.stringify({ type: 'compacted', payload: { message, replacement_history: [] } });
    await writeFile(twice, `${await readFile(rollout, 'utf8')}${line('second summary')}\n`);
    expect(await readRolloutSummary(twice)).toBe('second summary');
  });

  it('means no summary for a missing, damaged or summary-less rollout', async () => {
    expect(await readRolloutSummary(undefined)).toBeUndefined();
    expect(await readRolloutSummary(join(temp.root, 'missing.jsonl'))).toBeUndefined();
    const damaged = join(temp.root, 'damaged.jsonl');
    await writeFile(
      damaged,
      '{"type":"compacted","payload":{"message": 3}}\n{"type":"compacted", broken\nnot json\n',
    );
    expect(await readRolloutSummary(damaged)).toBeUndefined();
    expect(await readRolloutSummary(temp.root)).toBeUndefined();
    expect(summaryFromCompactedMessage('  ')).toBeUndefined();
  });

  it('PostCompact with an unreadable rollout still writes the compaction node', async () => {
    const { payload } = await fixture('05-post-compact.json');
    const result = await deliver('PostCompact', {
      ...payload,
      transcript_path: '/nonexistent/x.jsonl',
    });
    expect(result.calls).toEqual(['compaction-complete']);
  });
});

describe('the final answer in the rollout (run digests)', () => {
  // A real rollout: a command, then an answer in text (scripts/capture-answer-rollout.mjs).
  const answered = join(fixtures, 'rollout', 'answered.jsonl');
  const ANSWER = 'The parser re-reads the file for every line; read it once into a buffer.';

  /** The rollout up to its prompt: the session ended before any answer. */
  async function unanswered(): Promise<string> {
    const lines = (await readFile(answered, 'utf8')).trim().split('\n');
    const prompt = lines.findIndex((line) => line.includes('"UserMessage"'));
    const path = join(temp.root, 'unanswered.jsonl');
    await writeFile(path, `${lines.slice(0, prompt + 1).join('\n')}\n`);
    return path;
  }

  it('reads the last answer, null when the prompt has none, nothing when it cannot tell', async () => {
    expect(await readRolloutFinalAnswer(answered)).toBe(ANSWER);
    expect(await readRolloutFinalAnswer(await unanswered())).toBeNull();
    expect(await readRolloutFinalAnswer(join(temp.root, 'missing.jsonl'))).toBeUndefined();
    expect(await readRolloutFinalAnswer(undefined)).toBeUndefined();
    // The compaction fixture holds no message at all.
    const compacted = readdirSync(join(fixtures, 'rollout')).find((n) => n.startsWith('rollout-'))!;
    expect(await readRolloutFinalAnswer(join(fixtures, 'rollout', compacted))).toBeUndefined();
  });

  const session = async (transcript: string | undefined) => {
    const { payload } = await fixture('01-session-start.json');
    const ids = { session_id: payload.session_id, cwd: temp.root };
    await deliver('SessionStart', { ...payload, ...ids });
    await deliver('UserPromptSubmit', { ...ids, prompt: 'Why is the parser slow?' });
    await deliver('SessionEnd', { ...ids, transcript_path: transcript, reason: 'other' });
    return findRunDigest(temp.root, String(payload.session_id), ['codex']).digest;
  };

  it('digests an answered run as answered, an unreadable one as unknown', async () => {
    expect(await session(answered)).toMatchObject({
      outcome: 'succeeded',
      outcomeReason: 'the agent answered; no tool ran',
    });
  });

  it('an unreadable rollout leaves the outcome unknown, not abandoned', async () => {
    expect((await session('/nonexistent/rollout.jsonl')).outcome).toBe('unknown');
  });

  it('a rollout whose last prompt has no answer makes the run abandoned', async () => {
    expect((await session(await unanswered())).outcome).toBe('abandoned');
  });
});
