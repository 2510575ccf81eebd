import { readFile, writeFile } from 'node:fs/promises';
import { memoryLongTermPath } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const cairn = (args: string[], input?: string) => cli.run(args, input);
const cairnAsync = (args: string[], input: string) => cli.start(args, input);

const payload = (value: object) => JSON.stringify(value);

describe('cairn lifecycle | expand | threads | head', () => {
  it('runs a session end to end through the CLI', () => {
    cairn(['init']);
    const ids = { agentId: 'cli', sessionKey: 'one', threadKey: 'topic-cli' };
    expect(
      JSON.parse(
        cairn(['lifecycle', 'session-start'], payload({ ...ids, cwd: project.root })).stdout,
      ).ok,
    ).toBe(true);
    cairn(
      ['lifecycle', 'user-prompt-submit'],
      payload({ ...ids, prompt: 'We decided to ship on Monday.' }),
    );
    const end = JSON.parse(cairn(['lifecycle', 'session-end'], payload(ids)).stdout);
    expect(end.nodeId).toMatch(/^node:/);
    const expanded = JSON.parse(cairn(['expand', end.nodeId, '--agent', 'cli', '--json']).stdout);
    expect(expanded.node.kind).toBe('session_summary');
    expect(JSON.parse(cairn(['threads', '--json']).stdout).threads[0].threadKey).toBe('topic-cli');
    expect(cairn(['head']).stdout).toContain('topic-cli');
    expect(cairn(['head', '--agent', 'cli', '--thread', 'topic-cli']).stdout).toContain(
      '# Thread topic-cli',
    );
    expect(cairn(['expand', end.nodeId, '--agent', 'someone-else']).code).toBe(1);
  });

  it('refuses a bad payload with exit 2 and writes nothing', async () => {
    cairn(['init']);
    const before = await snapshotTree(project.root);
    for (const [args, input] of [
      [['lifecycle', 'session-end'], '{not json'],
      [['lifecycle', 'session-end'], payload({ sessionKey: 'x' })],
      [['lifecycle', 'teleport'], payload({ agentId: 'a', sessionKey: 'x' })],
    ] as const) {
      const result = cairn([...args], input);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^cairn: INVALID_INPUT: /);
    }
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('sixteen processes ending sessions at once leave a valid head and keep the user edit', {
    timeout: 120_000,
  }, async () => {
    cairn(['init']);
    const memory = memoryLongTermPath(project.root);
    await writeFile(
      memory,
      (await readFile(memory, 'utf8')).replace(
        '## Notes',
        '## Notes\n\nMy own line, typed before the storm.',
      ),
    );
    const runs = await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        cairnAsync(
          ['lifecycle', 'session-end'],
          payload({ agentId: `agent-${n % 4}`, sessionKey: `s-${n}` }),
        ),
      ),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).failed).toBeUndefined();
    }
    const final = await readFile(memory, 'utf8');
    expect(final.match(/<!-- cairn:head:start -->/g)).toHaveLength(1);
    expect(final.match(/<!-- cairn:head:end -->/g)).toHaveLength(1);
    expect(final).toContain('My own line, typed before the storm.');
    const doctor = JSON.parse(cairn(['doctor', '--json']).stdout);
    expect(doctor.pendingWrites).toEqual([]);
    expect(doctor.lifecycleFailures).toEqual([]);
  });
});
