import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventProjectRoot } from './lifecycle-host';
import { locateProject } from './project-lookup';

/**
 * A `.cairn/` (or `.git`) in a folder anyone may write to is nobody's
 * project but that folder's own: `/tmp/.cairn`, made by another local user
 * or a stray process, must not become the project of every folder below
 * `/tmp`. `shared` plays `/tmp` (mode 1777) inside a temp folder.
 */

let temp: TempProject;
let shared: string;
let work: string;
beforeEach(async () => {
  temp = await makeTempProject('cairn-root-');
  shared = join(temp.root, 'shared');
  work = join(shared, 'work', 'deep');
  mkdirSync(work, { recursive: true });
  chmodSync(shared, 0o1777);
});
afterEach(() => temp.cleanup());

const isRoot = process.getuid?.() === 0;

describe('locateProject', () => {
  it('never takes a .cairn/ or .git in a world-writable folder above the start', () => {
    mkdirSync(join(shared, '.cairn'));
    mkdirSync(join(shared, '.git'));
    expect(locateProject(work)).toEqual({ root: work, initialized: false, start: work });
    expect(eventProjectRoot(work)).toBeUndefined();
  });

  it('takes a world-writable folder’s own .cairn/ when the user owns it', () => {
    mkdirSync(join(shared, '.cairn'));
    expect(locateProject(shared)).toMatchObject({ root: shared, initialized: true });
    expect(eventProjectRoot(shared)).toBe(shared);
  });

  it.skipIf(!isRoot)('not when another user owns it (needs root to chown)', () => {
    mkdirSync(join(shared, '.cairn'));
    chownSync(join(shared, '.cairn'), 65534, 65534);
    expect(locateProject(shared)).toMatchObject({ root: shared, initialized: false });
    expect(eventProjectRoot(shared)).toBeUndefined();
  });

  it('still finds the nearest .cairn/ above in folders only their owner writes', () => {
    const project = join(shared, 'work');
    mkdirSync(join(project, '.cairn'));
    expect(locateProject(work)).toMatchObject({ root: project, initialized: true, start: work });
    expect(eventProjectRoot(work)).toBe(project);
  });
});
