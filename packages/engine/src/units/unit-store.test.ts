import { readFile } from 'node:fs/promises';
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

const open = (overrides = {}) =>
  openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC', ...overrides },
    now: () => clock,
  });
const daily = (name = '2026-04-22.md') =>
  readFile(join(memoryWorkspacePath(project.root), name), 'utf8');
const UUID = /^UNIT:[0-9a-f-]{36}$/;

describe('memory units: add', () => {
  it("creates a unit in today's daily file and returns the created shape", async () => {
    const result = await (await open()).add({
      text: 'Use pnpm for dependency management in this workspace.',
    });
    expect(result).toEqual({
      action: 'created',
      memoryId: expect.stringMatching(UUID),
      kind: 'UNIT',
      path: '2026-04-22.md',
      category: 'decision',
      text: 'Use pnpm for dependency management in this workspace.',
    });
    const text = await daily();
    expect(text).toContain(
      `<!-- cairn:memory:item:start memory_id=${(result as { memoryId: string }).memoryId} category=decision review=approved created_at=2026-04-22T10:00:00.000Z updated_at=2026-04-22T10:00:00.000Z -->\nUse pnpm for dependency management in this workspace.\n<!-- cairn:memory:item:end -->\n\n----\n`,
    );
  });

  it('names the daily file by the date in the configured time zone', async () => {
    clock = new Date('2026-04-22T23:30:00.000Z');
    const result = await (await open({ timezone: 'Asia/Tokyo' })).add({
      text: 'Tokyo is ahead of UTC.',
    });
    expect(result).toMatchObject({ action: 'created', path: '2026-04-23.md' });
  });

  it('stores source and review, and keeps an explicit category', async () => {
    const cairn = await open();
    const result = await cairn.add({
      text: 'Ana leads QA',
      category: 'entity',
      review: 'draft',
      source: 'session 7 / turn D1:3',
    });
    const record = await cairn.get((result as { memoryId: string }).memoryId);
    expect(record).toMatchObject({
      category: 'entity',
      review: 'draft',
      source: 'session 7 / turn D1:3',
    });
  });

  it.each([
    [{ text: '' }, 'text_required'],
    [{ text: '   \n ' }, 'text_required'],
    [{}, 'text_required'],
    [{ text: 42 }, 'text_required'],
    [{ text: 'x'.repeat(2001) }, 'text_too_long'],
    [{ text: 'ok', category: 'opinion' }, 'invalid_category'],
    [{ text: 'ok', review: 'maybe' }, 'invalid_review'],
    [{ text: 'a <!-- cairn:memory:item:end --> b' }, 'text_contains_marker'],
    [{ text: 'ok', source: 'two\nlines' }, 'invalid_source'],
    [{ text: 'ok', source: 'carriage\rreturn' }, 'invalid_source'],
    [{ text: 'ok', source: 'lone \ud800 surrogate' }, 'invalid_source'],
  ])('%j fails with %s and writes nothing', async (input, error) => {
    const before = await snapshotTree(project.root);
    const result = await (await open()).add(input as never);
    expect(result).toMatchObject({ action: 'failed', error, message: expect.any(String) });
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('honours a configured limit for text_too_long', async () => {
    const result = await (await open({ limits: { maxUnitChars: 20 } })).add({
      text: 'this text is longer than twenty',
    });
    expect(result).toMatchObject({ action: 'failed', error: 'text_too_long' });
  });
});

describe('memory units: duplicates never write', () => {
  it('returns the existing unit for an exact or near duplicate', async () => {
    const cairn = await open();
    const first = await cairn.add({
      text: 'The staging database lives on host db-stage-2 in Frankfurt.',
    });
    const before = await snapshotTree(project.root);
    for (const text of [
      'the staging database lives on host db-stage-2 in frankfurt',
      'The staging database lives on host db-stage-2 in Frankfurt!!',
      'Note: the staging database lives on host db-stage-2 in Frankfurt.',
    ]) {
      expect(await cairn.add({ text })).toEqual({
        action: 'duplicate',
        existing: {
          memoryId: (first as { memoryId: string }).memoryId,
          kind: 'UNIT',
          path: '2026-04-22.md',
          category: 'fact',
          text: 'The staging database lives on host db-stage-2 in Frankfurt.',
        },
      });
    }
    expect(await snapshotTree(project.root)).toEqual(before);
    expect(
      await cairn.add({ text: 'The production database lives on host db-prod-1 in Dublin.' }),
    ).toMatchObject({
      action: 'created',
    });
  });

  it('counts RAW text for duplicates and reports it as RAW', async () => {
    const cairn = await open();
    await cairn.init();
    await cairn.write('# Notes\n\nDeploys happen on Tuesdays after the standup.\n');
    const result = await cairn.add({ text: 'Deploys happen on Tuesdays after the standup' });
    expect(result).toEqual({
      action: 'duplicate',
      existing: {
        memoryId: 'RAW:MEMORY.md#L3-L3',
        kind: 'RAW',
        path: 'MEMORY.md',
        text: 'Deploys happen on Tuesdays after the standup.',
      },
    });
  });
});

describe('the ---- rule', () => {
  it('stores a user line equal to ---- as --- so it never becomes a boundary', async () => {
    const cairn = await open();
    const result = await cairn.add({ text: 'Part one\n----\nPart two' });
    expect(result).toMatchObject({ action: 'created', text: 'Part one\n---\nPart two' });
    const parsed = parseMemoryDocument(await daily(), '2026-04-22.md');
    expect(parsed.units).toHaveLength(1);
    expect(parsed.units[0]!.text).toBe('Part one\n---\nPart two');
    expect(parsed.issues).toEqual([]);
  });

  it('separates every unit with a ---- line', async () => {
    const cairn = await open();
    await cairn.add({ text: 'First memory about cats.' });
    await cairn.add({ text: 'Second memory about dogs.' });
    expect((await daily()).match(/^----$/gm)).toHaveLength(2);
  });
});
