import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error';
import { COMPARE_USAGE, DEFAULT_COMPARE_SECTIONS, parseCompareOptions } from './compare-args';

let root: string;
let data: string;

/** A checkout as the compare needs it; `leave` names the part to leave out. */
function checkout(name: string, leave?: 'bench' | 'install' | 'cli', benchName = '@cairn/bench') {
  const dir = join(root, name);
  mkdirSync(join(dir, 'bench'), { recursive: true });
  if (leave !== 'bench') {
    writeFileSync(join(dir, 'bench/package.json'), JSON.stringify({ name: benchName }));
  }
  if (leave !== 'install') mkdirSync(join(dir, 'bench/node_modules'));
  if (leave !== 'cli') {
    mkdirSync(join(dir, 'packages/cli/dist'), { recursive: true });
    writeFileSync(join(dir, 'packages/cli/dist/bin.cjs'), '');
  }
  return dir;
}

const parse = (argv: string[]) => parseCompareOptions(argv, { cwd: root, dataPath: data });

function usageError(argv: string[]): UsageError {
  try {
    parse(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).usage).toBe(COMPARE_USAGE);
    return error as UsageError;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-compare-args-'));
  data = join(root, 'locomo.json');
  writeFileSync(data, '[]');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('parseCompareOptions', () => {
  it('takes a built checkout, relative to where the user typed, and the default sections', () => {
    const dir = checkout('before');
    expect(parse(['--before', 'before'])).toEqual({
      beforeDir: dir,
      sections: [...DEFAULT_COMPARE_SECTIONS],
      dataPath: data,
      jsonPath: undefined,
      quick: false,
    });
  });

  it('runs the sections named, each once, with the options passed on', () => {
    checkout('before');
    const options = parse(['--', '--before', 'before', 'harnesses', 'working', 'harnesses']);
    expect(options?.sections).toEqual(['harnesses', 'working']);
    expect(parse(['--before', 'before', '--quick', '--json', 'out.json', 'scale'])).toMatchObject({
      quick: true,
      jsonPath: join(root, 'out.json'),
    });
  });

  it('prints the usage for --help', () => {
    expect(parse(['--help'])).toBeUndefined();
  });

  it('refuses a missing --before', () => {
    expect(usageError(['harnesses']).message).toMatch(/needs --before <dir>/);
  });

  it('refuses a --before that is not a directory', () => {
    expect(usageError(['--before', 'nowhere']).message).toMatch(/is not a directory/);
    expect(usageError(['--before', data]).message).toMatch(/is not a directory/);
  });

  it('refuses a directory that is not a checkout of this repository', () => {
    checkout('plain', 'bench');
    expect(usageError(['--before', 'plain']).message).toMatch(/no bench\/package.json/);
    checkout('other', undefined, '@someone/bench');
    expect(usageError(['--before', 'other']).message).toMatch(/not a checkout of this repository/);
  });

  it('refuses a checkout that is not installed or has no built CLI', () => {
    checkout('bare', 'install');
    expect(usageError(['--before', 'bare']).message).toMatch(/run `pnpm install` there/);
    checkout('unbuilt', 'cli');
    expect(usageError(['--before', 'unbuilt']).message).toMatch(/run `pnpm build` there/);
  });

  it('refuses an unknown section, and all or compare as one', () => {
    checkout('before');
    for (const name of ['nosuch', 'all', 'compare']) {
      expect(usageError(['--before', 'before', 'working', name]).message).toContain(
        `unknown section "${name}"`,
      );
    }
  });

  it('refuses locomo without its data, and an unknown option', () => {
    checkout('before');
    expect(usageError(['--before', 'before', 'locomo', '--data', 'none.json']).message).toMatch(
      /locomo needs the LoCoMo JSON/,
    );
    expect(parse(['--before', 'before', 'working', '--data', 'none.json'])?.sections).toEqual([
      'working',
    ]);
    expect(usageError(['--before', 'before', '--fast']).message).toMatch(/--fast/);
  });
});
