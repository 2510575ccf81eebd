import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath, parseMemoryDocument } from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../index';

let project: TempProject;
let clock: Date;
beforeEach(async () => {
  project = await makeTempProject();
  clock = new Date('2026-04-22T10:00:00.000Z');
});
afterEach(() => project.cleanup());

const open = () =>
  openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC' },
    now: () => clock,
  });
const file = (name: string) => join(memoryWorkspacePath(project.root), name);
const idOf = (result: unknown) => (result as { memoryId: string }).memoryId;

describe('replace, remove, get, list', () => {
  it('replace keeps the id and created_at and moves updated_at', async () => {
    const cairn = await open();
    const id = idOf(await cairn.add({ text: 'We deploy with Helm.' }));
    clock = new Date('2026-04-25T08:00:00.000Z');
    expect(await cairn.replace(id, 'We deploy with Argo CD.')).toMatchObject({
      action: 'replaced',
      memoryId: id,
      path: '2026-04-22.md',
      text: 'We deploy with Argo CD.',
      createdAt: '2026-04-22T10:00:00.000Z',
      updatedAt: '2026-04-25T08:00:00.000Z',
    });
    expect(await cairn.get(id)).toMatchObject({
      text: 'We deploy with Argo CD.',
      createdAt: '2026-04-22T10:00:00.000Z',
    });
    expect(await cairn.list()).toHaveLength(1);
  });

  it('remove deletes the unit and its separator, leaving the others intact', async () => {
    const cairn = await open();
    const a = idOf(await cairn.add({ text: 'Alpha memory one.' }));
    const b = idOf(await cairn.add({ text: 'Beta memory two.' }));
    const c = idOf(await cairn.add({ text: 'Gamma memory three.' }));
    expect(await cairn.remove(b)).toEqual({
      action: 'removed',
      memoryId: b,
      kind: 'UNIT',
      path: '2026-04-22.md',
    });
    expect((await cairn.list()).map((u) => u.memoryId)).toEqual([a, c]);
    const text = await readFile(file('2026-04-22.md'), 'utf8');
    expect(text.match(/^----$/gm)).toHaveLength(2);
    expect(text).not.toContain('Beta');
    await expect(cairn.get(b)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('RAW content is addressable and searchable but not mutable', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.write('# Notes\n\nThe VPN endpoint is vpn.example.org.\n');
    expect(await cairn.get('RAW:MEMORY.md#L3-L3')).toMatchObject({
      kind: 'RAW',
      text: 'The VPN endpoint is vpn.example.org.',
    });
    const before = await snapshotTree(project.root);
    expect(await cairn.replace('RAW:MEMORY.md#L3-L3', 'x')).toMatchObject({
      action: 'failed',
      error: 'not_mutable',
    });
    expect(await cairn.remove('RAW:MEMORY.md#L3-L3')).toMatchObject({
      action: 'failed',
      error: 'not_mutable',
    });
    expect(await snapshotTree(project.root)).toEqual(before);
    await expect(cairn.get('RAW:MEMORY.md#L3-L99')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(cairn.get('RAW:../etc/passwd#L1-L1')).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
  });

  it('a unique start of an id names the unit; one that two ids share is a conflict naming both', async () => {
    const cairn = await open();
    const first = idOf(await cairn.add({ text: 'We deploy with Helm.' }));
    const second = idOf(await cairn.add({ text: 'We test with Vitest.' }));
    // Give the second id the first one's first eight hex digits.
    const shared = first.slice(0, 'UNIT:'.length + 8);
    const twin = `${shared}${second.slice(shared.length)}`;
    const daily = file('2026-04-22.md');
    await writeFile(daily, (await readFile(daily, 'utf8')).replace(second, twin));
    const before = await snapshotTree(project.root);
    const ambiguous = await cairn.replace(shared, 'We deploy with Argo CD.');
    expect(ambiguous).toMatchObject({ action: 'failed', error: 'conflict' });
    expect(JSON.stringify(ambiguous)).toContain(first);
    expect(JSON.stringify(ambiguous)).toContain(twin);
    expect(await cairn.remove(shared)).toMatchObject({ action: 'failed', error: 'conflict' });
    await expect(cairn.get(shared)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await snapshotTree(project.root)).toEqual(before);
    const unique = first.slice(0, shared.length + 6);
    expect((await cairn.get(unique)).memoryId).toBe(first);
    expect(await cairn.setReview(unique.slice('UNIT:'.length), 'draft')).toMatchObject({
      action: 'reviewed',
      memoryId: first,
    });
    expect(await cairn.remove(twin.slice(0, shared.length + 6))).toMatchObject({
      action: 'removed',
      memoryId: twin,
    });
  });

  it('invalid and unknown ids fail without writing', async () => {
    const cairn = await open();
    await cairn.add({ text: 'Something to keep.' });
    const before = await snapshotTree(project.root);
    expect(await cairn.replace('nope', 'x')).toMatchObject({
      action: 'failed',
      error: 'invalid_id',
    });
    const unknown = 'UNIT:00000000-0000-4000-8000-000000000000';
    expect(await cairn.remove(unknown)).toMatchObject({ action: 'failed', error: 'not_found' });
    expect(await cairn.replace(unknown, 'new text')).toMatchObject({
      action: 'failed',
      error: 'not_found',
    });
    await expect(cairn.get('nope')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('list filters by category, review, dates and path', async () => {
    const cairn = await open();
    await cairn.add({ text: 'I prefer tabs over spaces.' });
    clock = new Date('2026-05-02T10:00:00.000Z');
    await cairn.add({ text: 'We decided to adopt Vitest.', review: 'draft' });
    expect((await cairn.list({ category: 'preference' })).map((u) => u.category)).toEqual([
      'preference',
    ]);
    expect(await cairn.list({ review: 'draft' })).toHaveLength(1);
    expect(await cairn.list({ since: '2026-05-01' })).toHaveLength(1);
    expect(await cairn.list({ until: '2026-05-01' })).toHaveLength(1);
    expect(await cairn.list({ path: '2026-05' })).toHaveLength(1);
    await expect(cairn.list({ since: 'yesterday' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('twenty concurrent adds in one process all land', async () => {
    const cairn = await open();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        cairn.add({ text: `Concurrent memory number ${i} about topic ${i * 7}.` }),
      ),
    );
    expect(results.every((r) => r.action === 'created')).toBe(true);
    expect(await cairn.list()).toHaveLength(20);
  });
});

describe('damaged files', () => {
  it('keep every line readable as RAW and are reported by doctor', async () => {
    const cairn = await open();
    const id = idOf(await cairn.add({ text: 'A healthy unit.' }));
    const damaged = [
      '# 2026-04-21',
      '<!-- cairn:memory:item:start memory_id=UNIT:11111111-1111-4111-8111-111111111111 category=fact review=approved created_at=2026-04-21T10:00:00.000Z updated_at=2026-04-21T10:00:00.000Z -->',
      'Unterminated unit text that must not be lost.',
      '<!-- cairn:memory:item:start memory_id=bogus category=nope -->',
      'Invalid attributes text.',
      '<!-- cairn:memory:item:end -->',
      '<!-- cairn:memory:item:end -->',
      'Trailing note.',
    ].join('\n');
    await writeFile(file('2026-04-21.md'), damaged);
    const report = await cairn.doctor();
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => [i.path, i.line, i.kind])).toEqual([
      ['2026-04-21.md', 2, 'nested_start'],
      ['2026-04-21.md', 4, 'invalid_attributes'],
      ['2026-04-21.md', 7, 'stray_end'],
    ]);
    expect((await cairn.get(id)).text).toBe('A healthy unit.');
    const parsed = parseMemoryDocument(
      await readFile(file('2026-04-21.md'), 'utf8'),
      '2026-04-21.md',
    );
    const raw = parsed.raw.map((segment) => segment.text).join('\n');
    for (const line of [
      'Unterminated unit text that must not be lost.',
      'Invalid attributes text.',
      'Trailing note.',
    ]) {
      expect(raw).toContain(line);
    }
    expect(
      await cairn.add({ text: 'Unterminated unit text that must not be lost.' }),
    ).toMatchObject({
      action: 'duplicate',
      existing: { kind: 'RAW', path: '2026-04-21.md' },
    });
  });
});
