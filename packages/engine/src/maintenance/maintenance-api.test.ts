import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { openMaintenance } from './maintenance-api';
import { MaintenanceStore } from './maintenance-store';

const memoryFile = (project: TempProject, name: string) =>
  join(project.root, '.cairn', 'memory', name);

/** The bytes of a file outside the region between `<!-- cairn:<name>:start -->` and its end marker. */
function outsideRegion(content: string, name: string): string {
  const start = content.indexOf(`<!-- cairn:${name}:start -->`);
  const endMarker = `<!-- cairn:${name}:end -->`;
  const end = content.indexOf(endMarker);
  return start === -1 ? content : content.slice(0, start) + content.slice(end + endMarker.length);
}

describe('maintenance proposals (approve, reject, undo, conflict)', () => {
  let project: TempProject;
  let cairn: Cairn;
  beforeEach(async () => {
    ({ project, cairn } = await openTestProject());
  });
  afterEach(async () => {
    await closeTestProject(project, cairn);
  });

  async function seed() {
    const a = await cairn.add({
      text: 'Use pnpm to install dependencies in this repository, never npm.',
      category: 'decision',
    });
    const b = await cairn.add({
      text: 'Dependencies in this repo are installed with pnpm; do not run npm install here.',
      category: 'decision',
    });
    const c = await cairn.add({
      text: 'The API server listens on port 8080 in development.',
      category: 'fact',
    });
    const d = await cairn.add({
      text: 'In development the API server listens on port 3000.',
      category: 'fact',
    });
    const e = await cairn.add({
      text: 'Release notes are written by hand in CHANGELOG.md each sprint.',
      category: 'fact',
    });
    for (const result of [a, b, c, d, e]) expect(result.action).toBe('created');
    return [a, b, c, d, e].map((r) => (r as { memoryId: string }).memoryId);
  }

  it('proposes a merge and a contradiction, writes DREAMS.md and the audit, and keeps user bytes', async () => {
    const [a, b, c, d] = await seed();
    const dreams = memoryFile(project, 'DREAMS.md');
    await writeFile(dreams, `${await readFile(dreams, 'utf8')}\nMy own note about dreams.\r\n`);
    const before = await readFile(dreams, 'utf8');
    const maintenance = openMaintenance(cairn);
    const outcome = await maintenance.run();
    expect(outcome.action).toBe('ran');
    const proposals = await maintenance.proposals();
    const merge = proposals.find((p) => p.kind === 'merge');
    const contradiction = proposals.find((p) => p.kind === 'contradiction');
    expect(merge?.unitIds.sort()).toEqual([a, b].sort());
    expect(contradiction?.unitIds.sort()).toEqual([c, d].sort());
    const after = await readFile(dreams, 'utf8');
    // The region is appended after the user's bytes, which stay as they were (CRLF included).
    expect(after.startsWith(before)).toBe(true);
    expect(after).toContain(merge!.id);
    await maintenance.reject(merge!.id);
    expect(outsideRegion(await readFile(dreams, 'utf8'), 'dreams')).toBe(
      outsideRegion(after, 'dreams'),
    );
    const audit = await readFile(memoryFile(project, 'memory-audit.md'), 'utf8');
    expect(audit).toContain('examined: 5 units');
    expect(await readFile(memoryFile(project, 'memory-insights.md'), 'utf8')).toContain(
      '## Insights',
    );
    // Nothing was edited by the run (the rejection above changes no unit either).
    expect((await cairn.list()).every((unit) => unit.review === 'approved')).toBe(true);
    // Idempotent: a second run proposes nothing new.
    const again = await maintenance.run();
    expect(again.action === 'ran' && again.proposals).toEqual([]);
  });

  it('approves atomically, undoes, and never proposes a rejected change again', async () => {
    await seed();
    const maintenance = openMaintenance(cairn);
    await maintenance.run();
    const proposals = await maintenance.proposals();
    const merge = proposals.find((p) => p.kind === 'merge');
    const contradiction = proposals.find((p) => p.kind === 'contradiction');
    expect(merge?.kind).toBe('merge');
    const applied = await maintenance.approve(merge!.id);
    expect(applied.outcome).toBe('applied');
    const dropped = merge!.patch.ops[0]!.memoryId;
    expect((await cairn.get(dropped)).review).toBe('deprecated');
    const undone = await maintenance.undo(merge!.id);
    expect(undone.outcome).toBe('undone');
    expect((await cairn.get(dropped)).review).toBe('approved');
    const rejected = await maintenance.reject(contradiction!.id);
    expect(rejected.proposal.state).toBe('rejected');
    await maintenance.run();
    expect((await maintenance.proposals()).map((p) => p.id)).not.toContain(contradiction!.id);
    const audit = await readFile(memoryFile(project, 'memory-audit.md'), 'utf8');
    for (const word of [
      `applied ${merge!.id}`,
      `undone ${merge!.id}`,
      `rejected ${contradiction!.id}`,
    ]) {
      expect(audit).toContain(word);
    }
  });

  it('turns a stale precondition into a conflict and writes nothing', async () => {
    await seed();
    const maintenance = openMaintenance(cairn);
    await maintenance.run();
    const merge = (await maintenance.proposals()).find((p) => p.kind === 'merge')!;
    const target = merge.patch.ops[0]!.memoryId;
    await cairn.replace(
      target,
      'We install dependencies with pnpm here; npm install is not used anymore.',
    );
    const file = (await cairn.get(target)).path;
    const bytes = await readFile(memoryFile(project, file), 'utf8');
    const result = await maintenance.approve(merge.id);
    expect(result.outcome).toBe('conflict');
    expect(result.proposal.state).toBe('conflict');
    expect(await readFile(memoryFile(project, file), 'utf8')).toBe(bytes);
  });

  it('refuses unknown and malformed ids with typed errors', async () => {
    const maintenance = openMaintenance(cairn);
    await expect(maintenance.approve('P-000000000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(maintenance.reject('../etc')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('takes a unique start of a proposal id; a start two share is CONFLICT naming both', async () => {
    await seed();
    const maintenance = openMaintenance(cairn);
    await maintenance.run();
    const [open] = await maintenance.proposals();
    // Two stored proposals whose ids share their first four hex digits.
    const store = MaintenanceStore.open(project.root);
    const twins = ['P-abcd00000001', 'P-abcd00000002'];
    try {
      for (const id of twins) store.put({ ...open!, id });
    } finally {
      store.close();
    }
    expect((await maintenance.proposal(open!.id.slice(0, 6))).id).toBe(open!.id);
    expect((await maintenance.proposal('abcd00000002')).id).toBe(twins[1]);
    const shared = maintenance.reject('P-abcd');
    await expect(shared).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { candidates: twins },
    });
    await expect(maintenance.reject('P-abcd')).rejects.toThrow(/P-abcd00000001, P-abcd00000002/);
    expect((await maintenance.proposals()).map((p) => p.id)).toEqual(expect.arrayContaining(twins));
  });
});
