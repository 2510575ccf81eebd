import type { FixPattern, FixPatternDetail } from '@cairn/engine';
import { describe, expect, it } from 'vitest';
import { callTool, connectedProjectPerTest } from './test-client';

const t = connectedProjectPerTest();

type HistoryStructured = {
  patterns?: FixPattern[];
  pattern?: FixPatternDetail;
  error?: { code: string; message: string };
};
const call = async (name: string, args?: Record<string, unknown>) => {
  const result = await callTool(t.client, name, args);
  return { ...result, history: result.structured as unknown as HistoryStructured };
};

/** One session: `go build` fails on a missing module, `go get` fixes it, the build passes. */
async function learnedPattern(): Promise<string> {
  // Codex's shell output: the exit code heads the text.
  const bash = (command: string, exitCode: number, text: string) =>
    t.cairn.lifecycle.toolUse({
      agentId: 'codex',
      sessionKey: 's1',
      toolName: 'shell',
      input: { command },
      output: `Exit code: ${exitCode}\n${text}`,
    });
  await bash(
    'go build ./...',
    1,
    'main.go:4:2: no required module provides package github.com/google/uuid; to add it:\n\tgo get github.com/google/uuid',
  );
  await bash('go get github.com/google/uuid', 0, 'go: added github.com/google/uuid v1.6.0');
  await bash('go build ./...', 0, '');
  const listed = await call('memory_fix_patterns');
  expect(listed.history.patterns).toHaveLength(1);
  return listed.history.patterns![0]!.id;
}

describe('the fix pattern tools', () => {
  it('list, show, approve and deprecate a pattern learned from the lifecycle', async () => {
    const id = await learnedPattern();
    const shown = await call('memory_fix_pattern', { id });
    expect(shown.isError).toBe(false);
    expect(shown.history.pattern).toMatchObject({
      id,
      state: 'candidate',
      commandFamily: 'go build',
      steps: [{ kind: 'run', key: 'run:go get' }],
      runs: [{ role: 'origin', sessionKey: 's1' }],
    });
    const approved = await call('memory_fix_pattern_approve', { id });
    expect(approved.history.pattern).toMatchObject({ state: 'verified' });
    // A person's approval promotes it to an approved decision unit; approving again writes nothing.
    const promotion = (approved.structured as { promotion?: { action: string; memoryId: string } })
      .promotion;
    expect(promotion).toMatchObject({ action: 'promoted', review: 'approved' });
    const again = await call('memory_fix_pattern_approve', { id });
    expect((again.structured as { promotion?: unknown }).promotion).toMatchObject({
      action: 'unchanged',
      memoryId: promotion!.memoryId,
    });
    const units = (await t.cairn.list()).filter((u) => u.source?.includes(`pattern=${id}`));
    expect(units.map((u) => [u.memoryId, u.review, u.category])).toEqual([
      [promotion!.memoryId, 'approved', 'decision'],
    ]);
    expect(
      (await call('memory_fix_patterns', { state: 'verified' })).history.patterns,
    ).toHaveLength(1);
    const deprecated = await call('memory_fix_pattern_deprecate', { id, reason: 'vendored now' });
    expect(deprecated.history.pattern).toMatchObject({
      state: 'deprecated',
      reason: 'vendored now',
    });
    expect((await call('memory_fix_patterns', { state: 'verified' })).history.patterns).toEqual([]);
  });

  it('answers an unknown id with NOT_FOUND and a malformed one with INVALID_INPUT, changing nothing', async () => {
    const id = await learnedPattern();
    const unknown = await call('memory_fix_pattern_approve', { id: 'FIX-000000000000' });
    expect(unknown.isError).toBe(true);
    expect(unknown.history.error).toMatchObject({ code: 'NOT_FOUND' });
    const malformed = await call('memory_fix_pattern_deprecate', { id: '../x' });
    expect(malformed.history.error).toMatchObject({ code: 'INVALID_INPUT' });
    const badState = await call('memory_fix_patterns', { state: 'gold' });
    expect(badState.isError).toBe(true);
    expect((await call('memory_fix_pattern', { id })).history.pattern?.state).toBe('candidate');
  });

  it('redacts the AWS key id an AWS CLI error carries, as the hook path does', async () => {
    const keyId = ['AK', 'IA', 'QWERTYUIOPASDFGH'].join('');
    const aws = (command: string, exitCode: number, text: string) =>
      t.cairn.lifecycle.toolUse({
        agentId: 'codex',
        sessionKey: 's1',
        toolName: 'shell',
        input: { command },
        output: `Exit code: ${exitCode}\n${text}`,
      });
    const failure = `An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. (AccessKeyId: ${keyId})`;
    await aws('aws sts get-caller-identity', 254, failure);
    await aws(`aws configure set aws_access_key_id ${keyId}`, 0, '');
    await aws('aws sts get-caller-identity', 0, '{"Account": "123456789012"}');
    const listed = await call('memory_fix_patterns');
    expect(listed.history.patterns).toHaveLength(1);
    const shown = await call('memory_fix_pattern', { id: listed.history.patterns![0]!.id });
    for (const answer of [listed, shown]) {
      expect(answer.text).not.toContain(keyId);
      expect(JSON.stringify(answer.structured)).not.toContain(keyId);
    }
    expect(shown.history.pattern?.normalized).toContain('[REDACTED:aws-access-key]');
    // The AWS CLI's own line is too generic to surface a Known fix; boto's names its error
    // class, so the same failure again injects one: it quotes the pattern, never the key.
    const boto = `Traceback (most recent call last):\nbotocore.exceptions.ClientError: ${failure}`;
    await aws('python deploy.py', 1, boto);
    await aws(`aws configure set aws_access_key_id ${keyId}`, 0, '');
    await aws('python deploy.py', 0, 'deployed');
    const again = await aws('python deploy.py', 1, boto);
    expect(again.inject).toContain('Known fix for this error');
    expect(again.inject).toContain('[REDACTED:aws-access-key]');
    expect(again.inject).not.toContain(keyId);
  });
});
