import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { retrieveContextPack } from '../packs';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { approveAndPromoteFixPattern } from './approve-pattern';
import {
  deprecateFixPattern,
  getFixPattern,
  listFixPatterns,
  reopenFixPattern,
} from './fix-patterns-api';
import {
  fixPatternUnitSteps,
  PROMOTION_SOURCE,
  promoteFixPattern,
  promoteVerifiedPattern,
} from './promote';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const LOCKFILE =
  'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with /home/u/app/package.json';

/** A session that fails `pnpm install`, edits the manifest, and then installs: one candidate pattern. */
async function learnPattern() {
  const ids = { agentId: 'claude', sessionKey: 'r1' };
  await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root, threadKey: 'app.main' });
  const bash = (command: string, stderr: string) =>
    cairn.lifecycle.toolUse({
      ...ids,
      toolName: 'Bash',
      input: { command },
      output: { stdout: stderr ? '' : 'Done', stderr },
    });
  await bash('pnpm install --frozen-lockfile', LOCKFILE);
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Edit',
    input: { file_path: `${project.root}/package.json` },
    output: { ok: true },
  });
  await bash('pnpm install --no-frozen-lockfile', '');
  await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
  const [pattern] = listFixPatterns(project.root);
  if (!pattern) throw new Error('no pattern learned');
  return pattern;
}

const decisions = async () =>
  (await cairn.list()).filter((unit) => unit.source?.startsWith(`${PROMOTION_SOURCE} pattern`));

describe('a person approves a fix pattern (promotions stay drafts unless a person approves)', () => {
  it('verifies it and promotes it to an approved decision unit, once, keeping the unit id', async () => {
    const pattern = await learnPattern();
    expect(pattern.state).toBe('candidate');
    const first = await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    expect(first.pattern.state).toBe('verified');
    expect(first.promotion).toMatchObject({ action: 'promoted', review: 'approved' });
    const [unit, ...others] = await decisions();
    expect(others).toEqual([]);
    expect(unit).toMatchObject({ category: 'decision', review: 'approved' });
    expect(unit!.text).toContain('ERR_PNPM_OUTDATED_LOCKFILE');
    // The unit is committed and read in other clones: the project's paths are relative.
    expect(unit!.text).toContain('config package.json');
    expect(unit!.text).not.toContain(project.root);
    expect(unit!.source).toContain(`pattern=${pattern.id}`);
    expect(unit!.source).toContain('approved=person');
    expect(unit!.source).toContain('evidence=r1');

    // Approving twice writes nothing: one unit, same id.
    const second = await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    expect(second.promotion).toMatchObject({
      action: 'unchanged',
      memoryId: unit!.memoryId,
      review: 'approved',
    });
    expect((await decisions()).map((u) => u.memoryId)).toEqual([unit!.memoryId]);

    // An approved unit is injected as approved memory.
    const pack = await retrieveContextPack(
      { query: 'pnpm install frozen lockfile', agentId: 'claude', planes: ['long-term'] },
      { rootDir: project.root, settings: cairn.settings, search: (s) => cairn.search(s) },
    );
    expect(pack.items).toContainEqual(
      expect.objectContaining({ id: unit!.memoryId, trustClass: 'approved' }),
    );
  });

  it('approves the draft the automatic path promoted, in place (same id)', async () => {
    const pattern = await learnPattern();
    const detail = getFixPattern(project.root, pattern.id);
    const auto = await promoteVerifiedPattern(cairn, project.root, detail);
    expect(auto.action).toBe('promoted');
    const [draft] = await decisions();
    expect(draft?.review).toBe('draft');
    const { promotion } = await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    expect(promotion).toEqual({
      action: 'approved',
      memoryId: draft!.memoryId,
      review: 'approved',
      previous: 'draft',
    });
    const after = await decisions();
    expect(after.map((u) => [u.memoryId, u.review])).toEqual([[draft!.memoryId, 'approved']]);
  });

  it('finds a draft promoted before units named their pattern, by signature and text', async () => {
    const pattern = await learnPattern();
    const detail = getFixPattern(project.root, pattern.id);
    await promoteFixPattern(cairn, {
      signature: detail.signature,
      normalized: detail.normalized,
      steps: fixPatternUnitSteps(detail),
      evidenceRuns: ['r1'],
    });
    const [legacy] = await decisions();
    expect(legacy!.source).not.toContain('pattern=');
    const { promotion } = await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    expect(promotion).toMatchObject({ action: 'approved', memoryId: legacy!.memoryId });
    expect(await decisions()).toHaveLength(1);
  });

  it('never revives a unit a review deprecated', async () => {
    const pattern = await learnPattern();
    await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    const [unit] = await decisions();
    await cairn.setReview(unit!.memoryId, 'deprecated');
    const { promotion } = await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    expect(promotion).toMatchObject({ action: 'unchanged', review: 'deprecated' });
    expect((await decisions()).map((u) => u.review)).toEqual(['deprecated']);
  });

  it('reopens an approved or rejected pattern as a candidate (the undo of a decision)', async () => {
    const pattern = await learnPattern();
    await approveAndPromoteFixPattern(project.root, cairn, pattern.id);
    expect(reopenFixPattern(project.root, pattern.id)).toMatchObject({
      state: 'candidate',
      reason: 'reopened by a person',
    });
    deprecateFixPattern(project.root, pattern.id);
    expect(reopenFixPattern(project.root, pattern.id).state).toBe('candidate');
    expect(() => reopenFixPattern(project.root, 'FIX-000000000000')).toThrow(/No fix pattern/);
  });
});
