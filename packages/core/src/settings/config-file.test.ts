import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectGlossaryPath, readProjectGlossary } from './config-file';

let project: { root: string };
beforeEach(async () => {
  project = { root: await mkdtemp(join(tmpdir(), 'cairn-glossary-')) };
  await mkdir(join(project.root, '.cairn'), { recursive: true });
});
afterEach(() => rm(project.root, { recursive: true, force: true }));

const write = (value: unknown) =>
  writeFile(
    projectGlossaryPath(project.root),
    typeof value === 'string' ? value : JSON.stringify(value),
  );

describe('readProjectGlossary', () => {
  it('reads the groups, again only when the file changed', async () => {
    expect(readProjectGlossary(project.root)).toBeUndefined();
    await write({ synonyms: [['kestrel', 'deploy pipeline']] });
    const first = readProjectGlossary(project.root);
    expect(first).toEqual([['kestrel', 'deploy pipeline']]);
    expect(readProjectGlossary(project.root)).toBe(first);
    await write({
      $schema: 'x',
      synonyms: [
        ['a', 'b'],
        ['on-call', 'duty', 'pager'],
      ],
    });
    expect(readProjectGlossary(project.root)).toEqual([
      ['a', 'b'],
      ['on-call', 'duty', 'pager'],
    ]);
  });

  it('refuses a broken file with INVALID_CONFIG naming the key, and a link with INVALID_PATH', async () => {
    await write('{ not json');
    expect(() => readProjectGlossary(project.root)).toThrow(/INVALID_CONFIG|not valid JSON/);
    await write({ synonyms: [['alone']] });
    expect(() => readProjectGlossary(project.root)).toThrow(
      expect.objectContaining({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('synonyms'),
      }),
    );
    await write({ synonyms: [], extra: true });
    expect(() => readProjectGlossary(project.root)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
    await writeFile(join(project.root, 'elsewhere.json'), JSON.stringify({ synonyms: [] }));
    const file = projectGlossaryPath(project.root);
    await rm(file);
    await symlink(join(project.root, 'elsewhere.json'), file);
    expect(() => readProjectGlossary(project.root)).toThrow(
      expect.objectContaining({ code: 'INVALID_PATH' }),
    );
  });
});
