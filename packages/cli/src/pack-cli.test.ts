import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  fakeSecrets,
  leakedFakeSecrets,
  makeStalenessRepo,
  makeTempProject,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const at = '2026-05-01T08:00:00.000Z';

async function seed() {
  await writeFile(
    join(project.root, 'README.md'),
    '# Deploy\n\nThe deploy script tags a release.\n',
  );
  expect(cli.run(['init']).code).toBe(0);
  const add = cli.run(['add', 'Deploys run on Fridays through the deploy script.']);
  expect(add.code, add.stderr).toBe(0);
  const draft = cli.run(['add', 'Deploys may move to Mondays.', '--review', 'draft']);
  expect(draft.code, draft.stderr).toBe(0);
  await mkdir(join(project.root, '.beads'), { recursive: true });
  const issue = {
    id: 'bd-7',
    title: 'Deploy gateway',
    description: 'Ship the deploy gateway.',
    status: 'open',
    priority: 1,
    issue_type: 'task',
    created_at: at,
    updated_at: at,
  };
  await writeFile(join(project.root, '.beads', 'issues.jsonl'), `${JSON.stringify(issue)}\n`);
}

describe('cairn pack', () => {
  it('prints the items with plane, trust, tokens and provenance, then the exclusions and the budget', async () => {
    await seed();
    const run = cli.run(['pack', 'deploy', 'bd-7', '--budget', '1500']);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain('Context pack for "deploy bd-7" (agent cli)');
    expect(out).toMatch(/planning\s+ok/);
    expect(out).toMatch(/history\s+ok .*no thread given/);
    expect(out).toMatch(/documents\s+ok/);
    expect(out).toMatch(
      /\[documents\] raw, \d+ tokens, document README\.md#Deploy \(README\.md:1\)/,
    );
    expect(out).toMatch(/\[planning\] derived, \d+ tokens, beads bd-7/);
    expect(out).toMatch(/\[long-term\] approved, \d+ tokens, unit UNIT:/);
    expect(out).toContain('Fridays');
    expect(out).toMatch(/\[long-term\] UNIT:\S+: draft-or-deprecated/);
    expect(out).not.toMatch(/^ {4}.*Mondays/m);
    expect(out).toMatch(/Budget: \d+ of 1500 tokens used \(o200k_base; frame \d+\)/);
    expect(out.indexOf('Items (')).toBeLessThan(out.indexOf('Excluded ('));
  });

  it('shows which items were redacted, and never the secret', async () => {
    expect(cli.run(['init']).code).toBe(0);
    const [aws, github] = [fakeSecrets()[0]!, fakeSecrets()[1]!];
    const add = cli.run(['add', `Deploy keys: ${aws.line} and ${github.line}`]);
    expect(add.code, add.stderr).toBe(0);
    const run = cli.run(['pack', 'deploy', 'keys']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /\[long-term\] approved, .*, redacted: aws-access-key, github-token/,
    );
    expect(run.stdout).toContain('[REDACTED:aws-access-key]');
    expect(leakedFakeSecrets(run.stdout)).toEqual([]);
    const json = cli.run(['pack', 'deploy', 'keys', '--json']);
    const { pack } = JSON.parse(json.stdout);
    expect(pack.items[0].redacted).toEqual(['aws-access-key', 'github-token']);
    expect(leakedFakeSecrets(json.stdout)).toEqual([]);
  });

  it('--json prints the pack; --plane limits the planes', async () => {
    await seed();
    const run = cli.run(['pack', 'deploy', '--plane', 'long-term', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const { ok, pack } = JSON.parse(run.stdout);
    expect(ok).toBe(true);
    expect(pack.planes.map((p: { status: string }) => p.status)).toEqual([
      'off',
      'off',
      'ok',
      'off',
    ]);
    expect(pack.items.length).toBeGreaterThan(0);
    expect(pack.items.every((i: { plane: string }) => i.plane === 'long-term')).toBe(true);
    expect(pack.budget.used).toBeLessThanOrEqual(pack.budget.total);
  });

  it('refuses a bad plane or budget with exit code 2', () => {
    expect(cli.run(['init']).code).toBe(0);
    const plane = cli.run(['pack', 'x', '--plane', 'dreams']);
    expect(plane.code).toBe(2);
    expect(plane.stderr).toContain('Unknown plane "dreams"');
    expect(cli.run(['pack', 'x', '--budget', 'lots']).code).toBe(2);
    expect(cli.run(['pack', 'x', '--thread', 'Not A Key']).code).toBe(2);
  });
});

describe('cairn pack --last', () => {
  it('prints what the hooks injected last, in the same format, and its receipt as JSON', async () => {
    await seed();
    const none = cli.run(['pack', '--last']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('No injection recorded yet');
    const ids = { agentId: 'claude', sessionKey: 's1', cwd: project.root };
    expect(cli.run(['lifecycle', 'session-start'], JSON.stringify(ids)).code).toBe(0);
    const start = cli.run(
      ['lifecycle', 'user-prompt-submit'],
      JSON.stringify({ ...ids, prompt: 'when do deploys run?' }),
    );
    expect(start.code, start.stderr).toBe(0);
    const { inject } = JSON.parse(start.stdout) as { inject: string };
    const receiptId = /Receipt (pack-[0-9a-f]{8})/.exec(inject)?.[1];
    expect(receiptId, inject).toBeDefined();

    const run = cli.run(['pack', '--last', '--session', 's1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Last injection: user-prompt-submit at `);
    expect(run.stdout).toContain(`receipt ${receiptId}`);
    expect(run.stdout).toMatch(/\[long-term\] approved, \d+ tokens, unit UNIT:/);
    expect(run.stdout).toMatch(/Excluded \(\d+\):/);
    expect(run.stdout).toMatch(/Budget: \d+ of 2000 tokens used \(estimate; frame \d+\)/);

    const json = cli.run(['pack', '--last', '--json']);
    const { ok, receipt } = JSON.parse(json.stdout);
    expect(ok).toBe(true);
    expect(receipt).toMatchObject({
      receiptId,
      event: 'user-prompt-submit',
      profile: 'prompt-submit',
      sessionKey: 's1',
    });
    expect(receipt.tokens).toBeLessThanOrEqual(receipt.budgetTokens);
    expect(cli.run(['pack', '--last', '--session', 'other', '--json']).stdout).toContain(
      '"receipt": null',
    );
  });

  it('shows a unit whose cited code changed since it was anchored with a mark; a fresh one without', () => {
    const repo = makeStalenessRepo(join(project.root, 'repo'), join(project.root, 'git-home'));
    const inRepo = cliRunner(() => repo.dir, { CAIRN_TIMEZONE: 'UTC' });
    expect(inRepo.run(['init']).code).toBe(0);
    const text = (name: string) => repo.cases.find((c) => c.name === name)!.text;
    for (const name of ['body changed', 'untouched function']) {
      const add = inRepo.run(['add', text(name), '--category', 'fact']);
      expect(add.code, add.stderr).toBe(0);
    }
    // The review inbox checks the units' anchors at HEAD; packs read that check.
    expect(inRepo.run(['review']).code).toBe(0);
    const anchoredAt = repo.git('rev-parse', '--short=7', 'HEAD');
    repo.advance();
    expect(inRepo.run(['review']).stdout).toContain('code changed since');

    const changed = inRepo.run(['pack', 'verifyToken', 'signed', 'token']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`Code changed since ${anchoredAt}: \`verifyToken\``);
    expect(changed.stdout).toMatch(new RegExp(`why: .*; Code changed since ${anchoredAt}`));
    const fresh = inRepo.run(['pack', 'loadConfig', 'config', 'files']);
    expect(fresh.stdout).toContain('Config files are read by `loadConfig`');
    expect(fresh.stdout).not.toContain('Code changed since');
  });

  it('refuses a query with --last, and no query without it', () => {
    expect(cli.run(['init']).code).toBe(0);
    expect(cli.run(['pack', 'x', '--last']).code).toBe(2);
    expect(cli.run(['pack']).code).toBe(2);
  });
});
