import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root);

function addDraft(text: string): string {
  const added = cli.run(['add', text, '--review', 'draft', '--category', 'fact', '--json']);
  expect(added.code, added.stderr).toBe(0);
  return JSON.parse(added.stdout).memoryId;
}

describe('cairn review', () => {
  it('lists drafts, approves one keeping its id, and deprecates another', () => {
    expect(cli.run(['init']).code).toBe(0);
    const first = addDraft('The staging database listens on port 5433.');
    const second = addDraft('Run make migrate before the tests.');
    const listed = JSON.parse(cli.run(['review', '--json']).stdout);
    expect(listed.drafts.map((d: { memoryId: string }) => d.memoryId)).toEqual([first, second]);
    expect(cli.run(['review']).stdout).toContain(first);

    const approve = cli.run(['review', 'approve', first, '--json']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(JSON.parse(approve.stdout)).toMatchObject({
      ok: true,
      action: 'reviewed',
      memoryId: first,
      review: 'approved',
    });
    const deprecate = cli.run(['review', 'deprecate', second]);
    expect(deprecate.code, deprecate.stderr).toBe(0);

    expect(JSON.parse(cli.run(['review', '--json']).stdout).drafts).toEqual([]);
    const got = JSON.parse(cli.run(['get', first, '--json']).stdout);
    expect(got.memory ?? got).toMatchObject({ memoryId: first, review: 'approved' });
  });

  it('refuses an unknown action (exit 2) and an unknown id (exit 1)', () => {
    expect(cli.run(['init']).code).toBe(0);
    expect(cli.run(['review', 'merge', 'UNIT:x']).code).toBe(2);
    const missing = cli.run([
      'review',
      'approve',
      'UNIT:11111111-1111-4111-8111-111111111111',
      '--json',
    ]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: 'not_found' });
  });
});
