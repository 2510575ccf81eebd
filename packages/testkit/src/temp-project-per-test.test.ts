import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { tempProjectPerTest, twoCheckoutsPerTest } from './temp-project-per-test';
import { fixtureUnit, writeWorkspaceFile } from './workspace-fixtures';

const memoryFile = (root: string, path: string) =>
  readFile(join(memoryWorkspacePath(root), path), 'utf8');

// The tests of each describe run in order: the second sees what the first one's cleanup did.
describe('tempProjectPerTest', () => {
  const project = tempProjectPerTest((root) => writeWorkspaceFile(root, 'MEMORY.md', 'seeded\n'));
  const closed: boolean[] = [];
  let previous = '';
  let outsideTests = '';
  try {
    outsideTests = project.root;
  } catch (error) {
    outsideTests = String(error);
  }

  it('gives the test a seeded project and takes what it opens', async () => {
    expect(await memoryFile(project.root, 'MEMORY.md')).toBe('seeded\n');
    const opened = { close: () => void closed.push(existsSync(project.root)) };
    expect(project.closeAfter(opened)).toBe(opened);
    previous = project.root;
  });

  it('closed it while the folder was there, then removed the folder; this test has its own', () => {
    expect(closed).toEqual([true]);
    expect(existsSync(previous)).toBe(false);
    expect(project.root).not.toBe(previous);
  });

  it('has no project while the tests are collected', () => {
    expect(outsideTests).toMatch(/only while a test runs/);
  });
});

describe('twoCheckoutsPerTest', () => {
  const checkouts = twoCheckoutsPerTest();

  it('holds two checkouts named alike, one unit each', async () => {
    expect(checkouts.appA).toBe(join(checkouts.root, 'one', 'app'));
    expect(checkouts.appB).toBe(join(checkouts.root, 'two', 'app'));
    expect(await memoryFile(checkouts.appA, '2026-03-01.md')).toBe(
      fixtureUnit(1, 'The wombat scheduler runs hourly.'),
    );
    expect(await memoryFile(checkouts.appB, '2026-03-01.md')).toBe(
      fixtureUnit(2, 'The wombat scheduler of project two runs daily.'),
    );
  });
});
