import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBdClient, findBd } from './beads-cli';
import { readBeadsExport } from './beads-export';
import { mentionedIssueIds, planningCandidates } from './planning-plane';

let dir: string;
let project: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-planning-'));
  project = join(dir, 'project');
  await mkdir(join(project, '.beads'), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const at = '2026-11-20T10:00:00Z';
/** Issues in Beads' export format (`types.Issue` JSON, one per line). */
function issue(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    title: `Title of ${id}`,
    description: '',
    status: 'open',
    priority: 2,
    issue_type: 'task',
    created_at: at,
    updated_at: at,
    ...fields,
  };
}
const dep = (issueId: string, dependsOn: string, type: string) => ({
  issue_id: issueId,
  depends_on_id: dependsOn,
  type,
  created_at: at,
  created_by: 'alice',
});

const EXPORT = [
  issue('bd-1', { title: 'Context packs', issue_type: 'epic' }),
  issue('bd-2', { title: 'Token budget', status: 'closed', closed_at: at }),
  issue('bd-3', {
    title: 'Planning plane',
    description: 'Read Beads issues into the pack.',
    design: 'Index the export lazily, per file version.',
    acceptance_criteria: '- reads .beads/issues.jsonl\n- skips corrupt lines',
    priority: 1,
    dependencies: [dep('bd-3', 'bd-1', 'parent-child'), dep('bd-3', 'bd-2', 'blocks')],
  }),
  issue('bd-4', {
    title: 'Trust classes',
    dependencies: [dep('bd-4', 'bd-1', 'parent-child')],
  }),
  issue('bd-5', {
    title: 'Blocked sibling',
    dependencies: [dep('bd-5', 'bd-1', 'parent-child'), dep('bd-5', 'bd-6', 'blocks')],
  }),
  issue('bd-6', { title: 'Open blocker', status: 'in_progress' }),
  issue('bd-7', { title: 'Deleted', status: 'tombstone' }),
];

const writeExport = (lines: string[]) =>
  writeFile(join(project, '.beads', 'issues.jsonl'), `${lines.join('\n')}\n`);
const exportLines = () => EXPORT.map((entry) => JSON.stringify(entry));
const noBd = { PATH: '' };

describe('planning plane from the .beads export', () => {
  it('gives the issue with its design notes, its acceptance criteria, dependencies and ready siblings', async () => {
    await writeExport(exportLines());
    const result = await planningCandidates({
      projectRoot: project,
      planningRef: 'bd-3',
      env: noBd,
    });
    expect(result.source).toBe('export');
    expect(result.issueIds).toEqual(['bd-3']);
    expect(result.notes).toEqual(['bd is not on PATH']);
    expect(result.items.map((item) => [item.id, item.why])).toEqual([
      ['beads:bd-3', 'the run names it (planningRef)'],
      ['beads:bd-3#acceptance', 'acceptance criteria of bd-3'],
      ['beads:bd-1', 'is the parent of bd-3'],
      ['beads:bd-2', 'blocks bd-3'],
      ['beads:bd-4', 'ready sibling of bd-3 under bd-1'],
    ]);
    const [target, acceptance] = result.items;
    expect(target).toMatchObject({
      plane: 'planning',
      trustClass: 'derived',
      source: 'beads (.beads/issues.jsonl)',
      provenance: { kind: 'beads', id: 'bd-3', file: '.beads/issues.jsonl', line: 3 },
      recency: at,
      text: 'bd-3 [open, P1, task] Planning plane\nRead Beads issues into the pack.\nDesign: Index the export lazily, per file version.',
    });
    expect(target!.tokenCost).toBeGreaterThan(5);
    expect(acceptance!.text).toContain('- skips corrupt lines');
  });

  it('finds the issues a branch name or prompt names, ignoring look-alikes', async () => {
    await writeExport(exportLines());
    expect(mentionedIssueIds(['feat/bd-4-trust', 'see bd-3 and pack-types, issue-14'])).toEqual([
      'bd-4',
      'bd-3',
      'issue-14',
    ]);
    const result = await planningCandidates({
      projectRoot: project,
      mentions: ['feat/bd-4-trust', 'also look at bd-99 and issue-14'],
      env: noBd,
    });
    expect(result.issueIds).toEqual(['bd-4']);
    expect(result.items[0]).toMatchObject({
      id: 'beads:bd-4',
      why: 'named in the branch or prompt',
    });
  });

  it('skips corrupt lines with a count, never a crash', async () => {
    await writeExport([
      '{"id":"bd-1","title":"ok","status":"open"}',
      '{not json',
      '{"title":"no id"}',
      '[1,2,3]',
      '{"id":"bd-2","title":42}',
      '',
      '{"id":"bd-3","title":"also ok","priority":"high","dependencies":"nope"}',
    ]);
    const read = await readBeadsExport(project);
    if (!read.found) throw new Error(read.reason);
    expect(read.export.skippedLines).toBe(4);
    expect([...read.export.issues.keys()]).toEqual(['bd-1', 'bd-3']);
    const result = await planningCandidates({
      projectRoot: project,
      planningRef: 'bd-3',
      env: noBd,
    });
    expect(result.skippedLines).toBe(4);
    expect(result.items.map((item) => item.id)).toEqual(['beads:bd-3']);
  });

  it('is empty, not an error, without Beads; an unknown ref is noted', async () => {
    const none = await planningCandidates({ projectRoot: project, planningRef: 'bd-1', env: noBd });
    expect(none).toMatchObject({ items: [], source: 'none' });
    expect(none.notes).toEqual(['bd is not on PATH', 'no .beads/issues.jsonl in the project']);
    await writeExport(exportLines());
    const unknown = await planningCandidates({
      projectRoot: project,
      planningRef: 'bd-7',
      env: noBd,
    });
    expect(unknown.items).toEqual([]);
    expect(unknown.notes).toContain('bd-7 is not a Beads issue here');
  });

  it('refuses an export that links outside the project', async () => {
    const outside = join(dir, 'secrets.jsonl');
    await writeFile(outside, `${JSON.stringify(issue('bd-1'))}\n`);
    await symlink(outside, join(project, '.beads', 'issues.jsonl'));
    const read = await readBeadsExport(project);
    expect(read).toEqual({
      found: false,
      reason: '.beads/issues.jsonl leads outside the project; not read',
    });
  });
});

/** A stand-in `bd` speaking the `--json` shapes of `bd show` and `bd ready`. */
async function writeFakeBd(where: string) {
  await mkdir(where, { recursive: true });
  const show = [
    {
      ...issue('bd-3', { title: 'Planning plane', acceptance_criteria: 'reads bd' }),
      dependencies: [
        { ...issue('bd-1', { title: 'Context packs' }), dependency_type: 'parent-child' },
      ],
    },
  ];
  const parent = [
    {
      ...issue('bd-1', { title: 'Context packs' }),
      dependents: [
        { ...issue('bd-3'), dependency_type: 'parent-child' },
        { ...issue('bd-4'), dependency_type: 'parent-child' },
      ],
    },
  ];
  const ready = [issue('bd-4', { title: 'Trust classes' }), issue('bd-9')];
  const script = `#!/bin/sh
case "$1 $2" in
  "show bd-3") echo '${JSON.stringify(show)}' ;;
  "show bd-1") echo '${JSON.stringify(parent)}' ;;
  "ready --json") echo '${JSON.stringify(ready)}' ;;
  *) echo "Error: no issue found" >&2; exit 1 ;;
esac
`;
  const bin = join(where, 'bd');
  await writeFile(bin, script);
  await chmod(bin, 0o755);
  return bin;
}

describe('planning plane through bd on PATH', () => {
  it('uses bd show/ready --json when bd is on PATH', async () => {
    const tools = join(dir, 'tools');
    await writeFakeBd(tools);
    const env = { PATH: [tools, '/usr/bin', '/bin'].join(delimiter) };
    const result = await planningCandidates({ projectRoot: project, planningRef: 'bd-3', env });
    expect(result.source).toBe('bd');
    expect(result.items.map((item) => [item.id, item.source])).toEqual([
      ['beads:bd-3', 'beads (bd)'],
      ['beads:bd-3#acceptance', 'beads (bd)'],
      ['beads:bd-1', 'beads (bd)'],
      ['beads:bd-4', 'beads (bd)'],
    ]);
  });

  it('never hands bd an option for an issue id (a prompt-injected planningRef)', async () => {
    const tools = join(dir, 'tools');
    const bin = await writeFakeBd(tools);
    const log = join(dir, 'bd-args.log');
    await writeFile(bin, `#!/bin/sh\necho "$@" >> '${log}'\necho '[]'\n`);
    const client = createBdClient(bin, project, { PATH: '/usr/bin:/bin' });
    expect(await client.show('--db=/tmp/elsewhere')).toEqual({ issue: undefined, children: [] });
    await client.show('bd-3');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['show bd-3 --json']);
  });

  it('never runs a bd inside the repository, nor one reached through a relative PATH entry', async () => {
    await writeFakeBd(join(project, 'bin'));
    await writeFakeBd(join(project, 'node_modules', '.bin'));
    const env = {
      PATH: [join(project, 'bin'), 'node_modules/.bin', '.', '', '/usr/bin'].join(delimiter),
    };
    expect(await findBd(env, project)).toBeUndefined();
    await writeExport(exportLines());
    const result = await planningCandidates({ projectRoot: project, planningRef: 'bd-3', env });
    expect(result.source).toBe('export');
  });
});
