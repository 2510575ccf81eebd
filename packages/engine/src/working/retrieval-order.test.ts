import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { closeTestProject, openTestProject } from '../test-project.fixture';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const session = (sessionKey: string, threadKey: string) => ({
  agentId: 'claude',
  sessionKey,
  harness: 'claude-code',
  cwd: project.root,
  threadKey,
});

/** Starts a session and submits one prompt; returns everything injected into it. */
async function prompt(sessionKey: string, threadKey: string, text: string) {
  const start = await cairn.lifecycle.sessionStart(session(sessionKey, threadKey));
  const submit = await cairn.lifecycle.userPromptSubmit({
    agentId: 'claude',
    sessionKey,
    prompt: text,
  });
  return {
    start: start.inject,
    submit: submit.inject,
    inject: `${start.inject}\n${submit.inject}`,
  };
}

describe('retrieval order (seed 002 §4)', () => {
  it('recalls units first and falls back to this thread’s transcripts only when no unit matches', async () => {
    await prompt('s1', 'topic-flux', 'The flux capacitor needs 1.21 gigawatts to work.');
    await cairn.lifecycle.sessionEnd({ agentId: 'claude', sessionKey: 's1' });

    const fallback = await prompt('s2', 'topic-flux', 'how many gigawatts for the flux capacitor?');
    // The run's digest says it in Cairn's words; the transcript excerpt that says the
    // same is a near-duplicate and is not quoted again: the fact comes once.
    expect(fallback.inject).toContain('1.21 gigawatts');
    expect(fallback.inject.split('1.21 gigawatts')).toHaveLength(2);

    await cairn.add({ text: 'The flux capacitor is kept in bay 3 of the garage.' });
    const units = await prompt('s3', 'topic-flux', 'where is the flux capacitor kept?');
    // The unit comes first (at session start or with the prompt); no transcript excerpt
    // (a summary node, raw too, may be quoted in the history plane).
    expect(units.inject).toContain('bay 3');
    expect(units.submit).not.toContain('lineage transcript');
  });

  it('never falls back to the transcript of another thread', async () => {
    await prompt('s1', 'topic-flux', 'The flux capacitor needs 1.21 gigawatts to work.');
    await cairn.lifecycle.sessionEnd({ agentId: 'claude', sessionKey: 's1' });
    const other = await prompt('s2', 'person-marty', 'how many gigawatts does it need?');
    expect(other.inject).not.toContain('1.21 gigawatts');
  });

  it('quotes a long tool output for the word of the prompt it holds', async () => {
    await prompt('s1', 'topic-flux', 'List the source files.');
    const paths = Array.from({ length: 30 }, (_, i) => `src/lib/module${i}/part${i}-index.ts`);
    paths.splice(17, 0, 'src/zorblax/settings.ts');
    await cairn.lifecycle.toolUse({
      agentId: 'claude',
      sessionKey: 's1',
      toolName: 'Glob',
      input: { pattern: '**/*.ts' },
      output: paths.join('\n'),
    });
    await cairn.lifecycle.sessionEnd({ agentId: 'claude', sessionKey: 's1' });
    // The excerpt's window holds far more words than the prompt; it is judged by the ones it was found by.
    const asked = await prompt('s2', 'topic-flux', 'what about zorblax?');
    expect(asked.submit).toContain('src/zorblax/settings.ts');
  });
});
