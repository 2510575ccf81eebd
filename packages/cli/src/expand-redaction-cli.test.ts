import { fakeSecrets, leakedFakeSecrets, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const payload = (value: object) => JSON.stringify(value);

describe('cairn expand', () => {
  it('shows a node and its transcript with secrets redacted, and says which', () => {
    expect(cli.run(['init']).code).toBe(0);
    const ids = { agentId: 'cli', sessionKey: 'one', threadKey: 'topic-keys' };
    const [aws, github] = [fakeSecrets()[0]!, fakeSecrets()[1]!];
    cli.run(['lifecycle', 'session-start'], payload({ ...ids, cwd: project.root }));
    cli.run(
      ['lifecycle', 'user-prompt-submit'],
      payload({
        ...ids,
        prompt: `We decided to rotate ${aws.value}. Next: push with ${github.value}`,
      }),
    );
    const end = JSON.parse(cli.run(['lifecycle', 'session-end'], payload(ids)).stdout);
    expect(end.nodeId).toMatch(/^node:/);

    const text = cli.run(['expand', end.nodeId, '--agent', 'cli']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/redacted: .*aws-access-key x\d/);
    expect(leakedFakeSecrets(text.stdout)).toEqual([]);
    const json = JSON.parse(cli.run(['expand', end.nodeId, '--agent', 'cli', '--json']).stdout);
    expect(json.redacted.map((r: { kind: string }) => r.kind)).toEqual([
      'aws-access-key',
      'github-token',
    ]);
    expect(JSON.stringify(json.transcript.entries)).toContain('[REDACTED:github-token]');
    expect(leakedFakeSecrets(JSON.stringify(json))).toEqual([]);
    // Heads written from this session hold no secret either.
    expect(
      leakedFakeSecrets(cli.run(['head', '--agent', 'cli', '--thread', 'topic-keys']).stdout),
    ).toEqual([]);
  });
});
