import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeKeptReaders, keptReaders } from './state-databases';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-kept-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Readers over `<root>/data`, each handle a number, with the opens and closes they saw. */
function counted() {
  const log: string[] = [];
  let next = 0;
  const readers = keptReaders<number>({
    path: (rootDir) => join(rootDir, 'data'),
    open: () => {
      next += 1;
      log.push(`open ${next}`);
      return next;
    },
    close: (handle) => log.push(`close ${handle}`),
  });
  return { readers, log };
}

describe('keptReaders', () => {
  it('opens once for reads that follow each other, never without the file, anew when it is replaced', () => {
    const { readers, log } = counted();
    expect(readers.read<number | 'none'>(root, 'none', (h) => h)).toBe('none');
    writeFileSync(join(root, 'data'), 'a');
    expect(readers.read(root, 0, (h) => h)).toBe(1);
    expect(readers.read(root, 0, (h) => h)).toBe(1);
    writeFileSync(join(root, 'data.new'), 'b');
    renameSync(join(root, 'data.new'), join(root, 'data'));
    expect(readers.read(root, 0, (h) => h)).toBe(2);
    rmSync(join(root, 'data'));
    expect(readers.read<number | 'none'>(root, 'none', (h) => h)).toBe('none');
    expect(log).toEqual(['open 1', 'close 1', 'open 2', 'close 2']);
  });

  it('closes a project’s readers when the project closes (closeKeptReaders)', () => {
    const { readers, log } = counted();
    writeFileSync(join(root, 'data'), 'a');
    readers.read(root, 0, (h) => h);
    closeKeptReaders(root);
    expect(log).toEqual(['open 1', 'close 1']);
    readers.read(root, 0, (h) => h);
    expect(log).toEqual(['open 1', 'close 1', 'open 2']);
    closeKeptReaders(root);
  });
});
