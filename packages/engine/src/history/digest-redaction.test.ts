import { redactSecrets } from '@cairn/core';
import { fakeSecrets, leakedFakeSecrets, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { openLineageStore } from '../lineage';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { findRunDigest, recentRunDigests } from './digest-queries';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const secret = () => fakeSecrets().find((s) => s.kind.includes('github')) ?? fakeSecrets()[0]!;

async function run(sessionKey: string) {
  const ids = { agentId: 'claude', sessionKey };
  const { line } = secret();
  await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root });
  await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: `Deploy with ${line}` });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command: 'python3 deploy.py' },
    // A Python error (a known family with an error class): a class-less `generic`
    // signature is low-information and never promoted (docs/HISTORY.md).
    output: {
      stdout: '',
      stderr: `Traceback (most recent call last):\n  File "deploy.py", line 3, in <module>\nPermissionError: token rejected: ${line}`,
    },
  });
  await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
}

describe('run digests hand out no secret', () => {
  it('redacts what the CLI and MCP read, and counts what it replaced', async () => {
    await run('s1');
    const one = findRunDigest(project.root, 's1', ['claude']);
    expect(leakedFakeSecrets(JSON.stringify(one.digest))).toEqual([]);
    expect(one.redacted.length).toBeGreaterThan(0);
    expect(one.digest.intent).toContain('[REDACTED:');
    const [listed] = recentRunDigests(project.root, { agentIds: ['claude'] });
    expect(leakedFakeSecrets(listed!.digest.intent)).toEqual([]);
  });

  it('stores a digest whose own fields never read as a secret (threadKey, sessionKey)', async () => {
    const ids = { agentId: 'claude', sessionKey: 'plain', threadKey: 'topic-keys' };
    await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root });
    await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'Tidy the README' });
    await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
    const store = openLineageStore(project.root);
    try {
      const [node] = store.listNodes({ agentId: 'claude', kinds: ['run_digest'] });
      expect(node!.text).toContain('<!-- cairn:run-digest {');
      expect(redactSecrets(node!.text).found).toEqual([]);
    } finally {
      store.close();
    }
    expect(findRunDigest(project.root, 'plain', ['claude'])).toMatchObject({
      redacted: [],
      digest: { threadKey: 'topic-keys', evidence: { sessionKey: 'plain' } },
    });
  });

  it('promotes a recurring error without its secret into the memory files', async () => {
    await run('s1');
    await run('s2');
    const drafts = await cairn.list({ review: 'draft' });
    expect(drafts).toHaveLength(1);
    expect(leakedFakeSecrets(`${drafts[0]!.text} ${drafts[0]!.source}`)).toEqual([]);
  });
});
