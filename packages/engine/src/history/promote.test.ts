import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { retrieveContextPack } from '../packs';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { PROMOTION_SOURCE, promoteFixPattern } from './promote';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const LOCKFILE =
  'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with /home/u/app/package.json';

async function run(sessionKey: string, resolve: boolean) {
  const ids = { agentId: 'claude', sessionKey };
  await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root, threadKey: 'app.main' });
  await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: 'Install the dependencies' });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command: 'pnpm install --frozen-lockfile' },
    output: { stdout: '', stderr: LOCKFILE.replace('/home/u', `/tmp/${sessionKey}`) },
  });
  if (resolve) {
    await cairn.lifecycle.toolUse({
      ...ids,
      toolName: 'Bash',
      input: { command: 'pnpm install --no-frozen-lockfile' },
      output: { stdout: 'Done in 2s', stderr: '' },
    });
  }
  const end = await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
  expect(end.failed).toBeUndefined();
}

const drafts = () => cairn.list({ review: 'draft' });

describe('promotion of recurring gotchas', () => {
  it('promotes an error met in a second run to one draft fact with its evidence', async () => {
    await run('r1', false);
    expect(await drafts()).toEqual([]);
    await run('r2', true);
    const [draft, ...rest] = await drafts();
    expect(rest).toEqual([]);
    expect(draft).toMatchObject({ category: 'fact', review: 'draft' });
    expect(draft!.text).toContain('ERR_PNPM_OUTDATED_LOCKFILE');
    expect(draft!.text).toContain('resolved in run r2');
    expect(draft!.source).toMatch(
      new RegExp(`^${PROMOTION_SOURCE} gotcha signature=[0-9a-f]{16} `),
    );
    expect(draft!.source).toContain('r2:');
    expect(draft!.source).toContain('r1:');

    // A third run with the same error promotes nothing new.
    await run('r3', true);
    expect(await drafts()).toHaveLength(1);
  });

  it('never injects a draft; approving keeps the id and lets the pack take it', async () => {
    await run('r1', false);
    await run('r2', true);
    const [draft] = await drafts();
    const pack = () =>
      retrieveContextPack(
        { query: 'pnpm install frozen lockfile', agentId: 'claude', planes: ['long-term'] },
        { rootDir: project.root, settings: cairn.settings, search: (s) => cairn.search(s) },
      );
    const before = await pack();
    expect(before.items.map((item) => item.id)).not.toContain(draft!.memoryId);
    expect(before.excluded).toContainEqual(
      expect.objectContaining({ id: draft!.memoryId, reason: 'draft-or-deprecated' }),
    );

    const approved = await cairn.setReview(draft!.memoryId, 'approved');
    expect(approved).toMatchObject({
      action: 'reviewed',
      memoryId: draft!.memoryId,
      previous: 'draft',
    });
    expect((await cairn.get(draft!.memoryId)).review).toBe('approved');
    const after = await pack();
    expect(after.items).toContainEqual(
      expect.objectContaining({ id: draft!.memoryId, trustClass: 'approved' }),
    );
  });

  it('does not promote again a signature whose unit was deprecated', async () => {
    await run('r1', false);
    await run('r2', true);
    const [draft] = await drafts();
    await cairn.setReview(draft!.memoryId, 'deprecated');
    await run('r3', true);
    expect(await drafts()).toEqual([]);
  });

  it('promotes a verified fix pattern as a draft decision, once', async () => {
    const pattern = {
      signature: 'abcdef0123456789',
      normalized:
        'pnpm: ERR_PNPM_OUTDATED_LOCKFILE | Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <path> [shell: pnpm install]',
      steps: ['run pnpm install --no-frozen-lockfile', 'commit pnpm-lock.yaml'],
      evidenceRuns: ['r1', 'r2'],
    };
    const first = await promoteFixPattern(cairn, pattern);
    expect(first.action).toBe('promoted');
    expect(await promoteFixPattern(cairn, pattern)).toMatchObject({ action: 'skipped' });
    const [unit] = await drafts();
    expect(unit).toMatchObject({ category: 'decision', review: 'draft' });
    expect(unit!.source).toBe(
      `${PROMOTION_SOURCE} pattern signature=abcdef0123456789 evidence=r1,r2`,
    );
  });

  it('refuses an unknown review state and an unknown unit', async () => {
    expect(
      await cairn.setReview('UNIT:11111111-1111-4111-8111-111111111111', 'approved'),
    ).toMatchObject({ action: 'failed', error: 'not_found' });
    expect(await cairn.setReview('nope', 'approved')).toMatchObject({ error: 'invalid_id' });
  });
});
