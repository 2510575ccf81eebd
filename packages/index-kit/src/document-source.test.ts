import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  documentPoolSource,
  gitignoreMatcher,
  globMatcher,
  listDocuments,
} from './document-source';

const GLOBS = ['README*', 'AGENTS.md', 'docs/**', 'adr/'];
const CAPS = { maxFileBytes: 1000, maxTotalBytes: 100_000 };

describe('globMatcher and gitignoreMatcher', () => {
  it('matches * within a folder, ** across folders, dir/ as everything under it', () => {
    expect(globMatcher('README*').test('README.md')).toBe(true);
    expect(globMatcher('README*').test('docs/README.md')).toBe(false);
    expect(globMatcher('docs/**').test('docs/a/b.md')).toBe(true);
    expect(globMatcher('adr/').test('adr/0001-x.md')).toBe(true);
    expect(globMatcher('**/*.md').test('a.md')).toBe(true);
  });

  it('reads the root .gitignore: anchors, folders, negation', () => {
    const ignored = gitignoreMatcher('# c\n/build\ndist/\n*.log\ndocs/private/\n!keep.log\n');
    expect(ignored('build', true)).toBe(true);
    expect(ignored('src/build', true)).toBe(false);
    expect(ignored('pkg/dist/x.md', false)).toBe(true);
    expect(ignored('a/b/c.log', false)).toBe(true);
    expect(ignored('keep.log', false)).toBe(false);
    expect(ignored('docs/private/x.md', false)).toBe(true);
    expect(ignored('docs/public/x.md', false)).toBe(false);
  });
});

describe('documentPoolSource', () => {
  let root: string;
  let outside: string;
  const put = async (path: string, text: string | Buffer) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cairn-docs-'));
    outside = await mkdtemp(join(tmpdir(), 'cairn-outside-'));
    await put('README.md', '# Project\n\nThe gadget ships weekly.\n');
    await put('AGENTS.md', '# Agents\n\nRun pnpm test.\n');
    await put('docs/guide/setup.md', '# Setup\n\nInstall the gadget.\n');
    await put('docs/private/secret.md', '# Secret\n');
    await put('docs/big.md', `# Big\n\n${'x'.repeat(2000)}\n`);
    await put('docs/image.md', Buffer.from([0x23, 0x00, 0x01]));
    await put('adr/0001-use-pnpm.md', '# Use pnpm\n');
    await put('src/notes.md', '# not selected\n');
    await put('node_modules/pkg/README.md', '# dependency\n');
    await put('.gitignore', 'docs/private/\n');
    await writeFile(join(outside, 'leak.md'), '# leaked\n');
    await symlink(join(outside, 'leak.md'), join(root, 'docs/leak.md'));
    await symlink(join(root, 'AGENTS.md'), join(root, 'docs/agents-link.md'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('lists what the globs select: ignored, oversized, foreign links and dependencies left out', () => {
    const paths = listDocuments(root, { globs: GLOBS, ...CAPS }).map((f) => f.path);
    expect(paths).toEqual([
      'AGENTS.md',
      'README.md',
      'adr/0001-use-pnpm.md',
      'docs/agents-link.md',
      'docs/guide/setup.md',
      'docs/image.md',
    ]);
  });

  it('stops at the total cap, in path order', () => {
    const files = listDocuments(root, { globs: GLOBS, maxFileBytes: 1000, maxTotalBytes: 60 });
    expect(files.map((f) => f.path)).toEqual(['AGENTS.md']);
  });

  it('reads selected text files only: no binary, no link out, no traversal', async () => {
    const source = documentPoolSource(root, { globs: GLOBS, ...CAPS });
    expect((await source.read('README.md'))?.toString()).toContain('gadget');
    expect(await source.read('docs/image.md')).toBeUndefined();
    expect(await source.read('docs/leak.md')).toBeUndefined();
    expect(await source.read('../README.md')).toBeUndefined();
    expect(await source.read('src/notes.md')).toBeUndefined();
    expect(await source.read('docs/big.md')).toBeUndefined();
  });
});

describe('document globs ignore letter case', () => {
  it('finds readme.md, Readme.md and a Docs/ folder with the default globs', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cairn-doc-case-'));
    try {
      await writeFile(join(root, 'readme.md'), '# a\n');
      await mkdir(join(root, 'Docs', 'Guide'), { recursive: true });
      await writeFile(join(root, 'Docs', 'Guide', 'Setup.MD'), '# b\n');
      const files = listDocuments(root, {
        globs: ['README*', 'docs/**'],
        maxFileBytes: 1_000_000,
        maxTotalBytes: 10_000_000,
      });
      expect(files.map((f) => f.path)).toEqual(['Docs/Guide/Setup.MD', 'readme.md']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
