import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openLineageStore } from '../lineage';
import { type ChatTestServer, completion, startChatServer } from '../summaries/chat-server.fixture';
import { makeTestRepo, poisonRepo, type TestRepo } from './git-test-repo.fixture';
import { getRunDigest, listRunDigests } from './run-digest-store';

let project: TempProject;
let repo: TestRepo;
let clock: number;
const cairns: Cairn[] = [];

beforeEach(async () => {
  project = await makeTempProject();
  repo = makeTestRepo(project.root, join(project.root, 'home'));
  clock = Date.parse('2026-05-01T09:00:00.000Z');
  repo.commit('chore: start', { 'README.md': 'hi\n' }, new Date(clock - 3_600_000));
});
afterEach(async () => {
  for (const cairn of cairns.splice(0)) cairn.closeWorking();
  await project.cleanup();
});

function tick(): Date {
  clock += 1000;
  return new Date(clock);
}

async function open(summarizer?: { baseUrl: string }): Promise<Cairn> {
  const cairn = await openCairn(project.root, {
    env: { PATH: process.env.PATH ?? '', HOME: join(project.root, 'home') },
    homeDir: join(project.root, 'home'),
    overrides: {
      timezone: 'UTC',
      ...(summarizer
        ? {
            summarizer: {
              provider: 'openai',
              baseUrl: summarizer.baseUrl,
              model: 'digest-model',
              apiKeyEnv: '',
            },
          }
        : {}),
    },
    now: tick,
  });
  cairns.push(cairn);
  return cairn;
}

const S = { agentId: 'claude', sessionKey: 'run-1' };
const FAILING_TEST = [
  ' FAIL  src/sum.test.ts > sum > adds',
  'AssertionError: expected 3 to be 4',
  ' Test Files  1 failed (1)',
  '      Tests  1 failed (1)',
].join('\n');

async function scriptedRun(cairn: Cairn, options: { end?: boolean; defer?: boolean } = {}) {
  await cairn.init();
  await cairn.lifecycle.sessionStart({ ...S, cwd: project.root, harness: 'claude-code' });
  await cairn.lifecycle.userPromptSubmit({
    ...S,
    prompt: 'Fix the failing sum test in src/sum.ts',
  });
  await cairn.lifecycle.toolUse({
    ...S,
    toolName: 'Bash',
    input: { command: 'pnpm test' },
    output: { stdout: FAILING_TEST, stderr: '', interrupted: false },
  });
  await cairn.lifecycle.toolUse({
    ...S,
    toolName: 'Edit',
    input: {
      file_path: join(project.root, 'src/sum.ts'),
      old_string: 'a - b',
      new_string: 'a + b',
    },
    output: { success: true },
  });
  await cairn.lifecycle.toolUse({
    ...S,
    toolName: 'Bash',
    input: { command: 'pnpm test' },
    output: { stdout: ' Test Files  1 passed (1)\n      Tests  1 passed (1)', stderr: '' },
  });
  clock += 5000;
  const sha = repo.commit(
    'fix: sum adds',
    { 'src/sum.ts': 'export const sum = (a, b) => a + b;\n' },
    new Date(clock),
  );
  clock += 5000;
  if (options.end === false) return { sha };
  const end = await cairn.lifecycle.sessionEnd({ ...S, deferSummary: options.defer ?? true });
  expect(end.failed).toBeUndefined();
  return { sha };
}

function digests(thread?: string) {
  const store = openLineageStore(project.root);
  try {
    return listRunDigests(store, { agentId: 'claude', ...(thread ? { threadKey: thread } : {}) });
  } finally {
    store.close();
  }
}

describe('run digest at session end', () => {
  it('records intent, outcome, commits, diffstat, edits and a resolved gotcha with evidence', async () => {
    const { sha } = await scriptedRun(await open());
    const [stored, ...rest] = digests();
    expect(rest).toEqual([]);
    const { digest } = stored!;
    expect(digest.runId).toBe('run-1');
    expect(digest.intent).toBe('Fix the failing sum test in src/sum.ts');
    expect(digest.outcome).toBe('succeeded');
    expect(digest.changes.commits.map((c) => [c.sha, c.subject])).toEqual([[sha, 'fix: sum adds']]);
    expect(digest.changes.diffstat).toMatchObject({
      to: sha,
      files: 1,
      insertions: 1,
      paths: ['src/sum.ts'],
    });
    expect(digest.changes.editedFiles).toEqual(['src/sum.ts']);
    expect(digest.gotchas).toHaveLength(1);
    const [gotcha] = digest.gotchas;
    expect(gotcha).toMatchObject({ family: 'vitest', status: 'resolved', count: 1 });
    expect(gotcha!.resolvedBy).toMatch(/^\d+:4$/);
    expect(digest.evidence).toMatchObject({ sessionKey: 'run-1', commits: [sha], entries: 4 });
    expect(digest.evidence.toolEventIds).toHaveLength(3);
    expect(digest.evidence.summaryNodeId).toMatch(/^node:/);
    expect(digest.narrativeSource).toBe('extractive');
  });

  it('is idempotent by run id: a repeated session end writes nothing, a resumed run a new version', async () => {
    const cairn = await open();
    await scriptedRun(cairn);
    const first = digests()[0]!;
    await cairn.lifecycle.sessionEnd({ ...S, deferSummary: true });
    const store = openLineageStore(project.root);
    const count = () => store.listNodes({ agentId: 'claude', kinds: ['run_digest'] }).length;
    try {
      expect(count()).toBe(1);
      await cairn.lifecycle.toolUse({
        ...S,
        toolName: 'Bash',
        input: { command: 'pnpm lint' },
        output: 'ok',
      });
      await cairn.lifecycle.sessionEnd({ ...S, deferSummary: true });
      expect(count()).toBe(2);
      const latest = getRunDigest(store, 'claude', 'run-1');
      expect(latest.nodeId).not.toBe(first.nodeId);
      expect(latest.digest.evidence.entries).toBe(5);
      expect(listRunDigests(store, { agentId: 'claude' })).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('marks a run that ends on a failure as failed with the gotcha still failing', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.lifecycle.sessionStart({ ...S, cwd: project.root });
    await cairn.lifecycle.userPromptSubmit({ ...S, prompt: 'Install the deps' });
    await cairn.lifecycle.toolUse({
      ...S,
      toolName: 'Bash',
      input: { command: 'pnpm install --frozen-lockfile' },
      output: {
        stdout: '',
        stderr:
          'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with package.json',
      },
    });
    await cairn.lifecycle.sessionEnd({ ...S, deferSummary: true });
    const { digest } = digests()[0]!;
    expect(digest.outcome).toBe('failed');
    expect(digest.gotchas[0]).toMatchObject({ family: 'pnpm', status: 'unresolved' });
    expect(digest.changes.commits).toEqual([]);
  });

  const promptOnly = async (finalAnswer?: string | null) => {
    const cairn = await open();
    await cairn.init();
    await cairn.lifecycle.sessionStart({ ...S, cwd: project.root });
    await cairn.lifecycle.userPromptSubmit({ ...S, prompt: 'Why is the parser slow?' });
    const end = { ...S, deferSummary: true, ...(finalAnswer !== undefined ? { finalAnswer } : {}) };
    await cairn.lifecycle.sessionEnd(end);
    // A harness that ends a session twice (OpenCode, OpenClaw) hands the answer over again.
    await cairn.lifecycle.sessionEnd(end);
    return digests()[0]!.digest;
  };

  it('calls a prompt-only run unknown when the harness did not hand over the answer', async () => {
    const digest = await promptOnly();
    expect(digest.outcome).toBe('unknown');
    expect(digest.outcomeReason).toContain('did not hand over');
  });

  it("reads the agent's final answer when the harness hands it over, once", async () => {
    const digest = await promptOnly('It re-tokenizes every line; I cached the tokens. Done.');
    expect(digest).toMatchObject({ outcome: 'succeeded', outcomeReason: "the agent's last turn" });
    const transcript = openLineageStore(project.root);
    try {
      const entries = transcript.getTranscript('claude', 'run-1')!.entries;
      expect(entries.filter((entry) => entry.role === 'assistant')).toHaveLength(1);
    } finally {
      transcript.close();
    }
  });

  it('calls a run abandoned when the harness read its transcript and found no answer', async () => {
    const digest = await promptOnly(null);
    expect(digest).toMatchObject({
      outcome: 'abandoned',
      outcomeReason: 'no tool ran and the agent did not answer',
    });
  });

  it('runs nothing from a hostile repository config at session end', async () => {
    const marker = join(project.root, '..', `marker-${Date.now()}.txt`);
    poisonRepo(repo, marker);
    await scriptedRun(await open());
    expect(digests()[0]!.digest.changes.commits).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
  });

  it('keeps edit-tool changes when git is not on PATH', async () => {
    const cairn = await openCairn(project.root, {
      env: {},
      homeDir: join(project.root, 'home'),
      overrides: { timezone: 'UTC' },
      now: tick,
    });
    cairns.push(cairn);
    await scriptedRun(cairn);
    const { digest } = digests()[0]!;
    expect(digest.changes.commits).toEqual([]);
    expect(digest.changes.editedFiles).toEqual(['src/sum.ts']);
    expect(digest.changes.gitNote).toMatch(/git not found/);
  });
});

describe('run digest with a model summarizer', () => {
  let server: ChatTestServer;
  const reply = {
    text: '## Status\nSum fixed.',
    status: 'Sum fixed.',
    decisions: ['Keep sum pure; no rounding'],
    commitments: [],
    blockers: [],
    nextSteps: ['Add a property test for sum'],
    files: [],
    commands: [],
  };
  beforeEach(async () => {
    server = await startChatServer(() => completion(JSON.stringify(reply)));
  });
  afterEach(() => server.close());

  it('takes decisions and next steps from the model when the hook has time', async () => {
    await scriptedRun(await open(server), { defer: false });
    const { digest } = digests()[0]!;
    expect(digest.narrativeSource).toBe('openai:digest-model');
    expect(digest.decisions).toContain('Keep sum pure; no rounding');
    expect(digest.nextSteps).toContain('Add a property test for sum');
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('writes an extractive digest at a short session end and the model version at the next session start', async () => {
    const cairn = await open(server);
    await scriptedRun(cairn, { defer: true });
    const first = digests()[0]!.digest;
    expect(first.narrativeSource).toBe('extractive');
    expect(server.requests).toHaveLength(0);
    await cairn.lifecycle.sessionStart({
      agentId: 'claude',
      sessionKey: 'run-2',
      cwd: project.root,
    });
    const latest = digests()[0]!.digest;
    expect(latest.runId).toBe('run-1');
    expect(latest.narrativeSource).toBe('openai:digest-model');
    expect(latest.decisions).toContain('Keep sum pure; no rounding');
    // The new version keeps the run's end and its commits.
    expect(latest.endedAt).toBe(first.endedAt);
    expect(latest.changes.commits).toEqual(first.changes.commits);
  });
});
