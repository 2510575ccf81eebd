import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonLinesFromEnd, readFileTail } from './read-file-tail';

let temp: TempProject;
beforeEach(async () => {
  temp = await makeTempProject('cairn-tail-');
});
afterEach(() => temp.cleanup());

describe('readFileTail', () => {
  it('reads whole lines from the end, and nothing from a missing file or a folder', async () => {
    const path = join(temp.root, 'log.jsonl');
    await writeFile(path, '{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(await readFileTail(path, 1024)).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(await readFileTail(path, 10)).toBe('{"c":3}\n');
    expect(await readFileTail(join(temp.root, 'missing'), 10)).toBeUndefined();
    expect(await readFileTail(temp.root, 10)).toBeUndefined();
  });

  it('yields parsed lines newest first, skipping damaged and unwanted ones', () => {
    const lines = [...jsonLinesFromEnd('{"a":1}\nbroken\n{"b":2}\n\n', (l) => !l.includes('"x"'))];
    expect(lines).toEqual([{ b: 2 }, { a: 1 }]);
  });
});
