import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkUserPath,
  forgetSoundFolders,
  shellQuote,
  type UserPathProblemCode,
  type UserPathRule,
} from './owner-rule';
import { ensureUserDir, isPrivateDir, privateDir, userPathWarning } from './user-dir';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

let base: string;
beforeEach(() => {
  forgetSoundFolders();
  // mkdtemp: a 0700 folder of ours in the sticky /tmp, as a user's own folder there would be.
  base = mkdtempSync(join(tmpdir(), 'cairn-owner-rule-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** `mkdir` with an exact mode (the umask would clear bits such as group write). */
function folder(path: string, mode = 0o700): string {
  mkdirSync(join(base, path), { recursive: true });
  chmodSync(join(base, path), mode);
  return join(base, path);
}

function file(path: string, mode = 0o600): string {
  writeFileSync(join(base, path), '{}');
  chmodSync(join(base, path), mode);
  return join(base, path);
}

interface Case {
  name: string;
  /** Needs root: files of another user (uid 65534) are made with chown. */
  root?: boolean;
  setup(): void;
  path: string;
  rule?: UserPathRule;
  /** The problem and the path at fault (relative to the temp folder), or undefined: passes. */
  expected?: { code: UserPathProblemCode; at: string };
}

const CASES: Case[] = [
  {
    name: 'a 0700 folder of ours in a sticky /tmp',
    setup: () => folder('a/b'),
    path: 'a/b',
    rule: { kind: 'directory', private: true },
  },
  {
    name: 'a 0644 file in 0755 folders',
    setup: () => {
      folder('a', 0o755);
      file('a/f', 0o644);
    },
    path: 'a/f',
    rule: { kind: 'file' },
  },
  {
    name: 'a file the group can write',
    setup: () => {
      folder('a');
      file('a/f', 0o664);
    },
    path: 'a/f',
    expected: { code: 'writable', at: 'a/f' },
  },
  {
    name: 'a file others can write (0666)',
    setup: () => {
      folder('a');
      file('a/f', 0o666);
    },
    path: 'a/f',
    expected: { code: 'writable', at: 'a/f' },
  },
  {
    name: 'a folder above that others can write (0777, not sticky)',
    setup: () => {
      folder('open', 0o777);
      folder('open/mine/cairn');
    },
    path: 'open/mine/cairn',
    expected: { code: 'writable', at: 'open' },
  },
  {
    name: 'a folder above that the group can write',
    setup: () => {
      folder('group', 0o770);
      folder('group/mine');
    },
    path: 'group/mine',
    expected: { code: 'writable', at: 'group' },
  },
  {
    name: 'a sticky world-writable folder above a folder of ours',
    setup: () => {
      folder('tmp', 0o1777);
      folder('tmp/mine/cairn');
    },
    path: 'tmp/mine/cairn',
    rule: { kind: 'directory' },
  },
  {
    name: "a sticky world-writable folder above another user's folder",
    root: true,
    setup: () => {
      folder('tmp', 0o1777);
      folder('tmp/squat', 0o755);
      folder('tmp/squat/cairn');
      chownSync(join(base, 'tmp/squat'), NOBODY, NOBODY);
    },
    path: 'tmp/squat/cairn',
    expected: { code: 'owner', at: 'tmp/squat' },
  },
  {
    name: "our 0700 folder below another user's 0755 folder",
    root: true,
    setup: () => {
      folder('squat', 0o755);
      folder('squat/cache/cairn/hooks');
      chownSync(join(base, 'squat'), NOBODY, NOBODY);
    },
    path: 'squat/cache/cairn/hooks',
    rule: { kind: 'directory', private: true },
    expected: { code: 'owner', at: 'squat' },
  },
  {
    name: "a file of another user's in a folder of ours",
    root: true,
    setup: () => {
      folder('a');
      chownSync(file('a/trusted-projects.json', 0o644), NOBODY, NOBODY);
    },
    path: 'a/trusted-projects.json',
    expected: { code: 'owner', at: 'a/trusted-projects.json' },
  },
  {
    name: 'the path itself a link',
    setup: () => {
      folder('real');
      symlinkSync(join(base, 'real'), join(base, 'link'));
    },
    path: 'link',
    expected: { code: 'link', at: 'link' },
  },
  {
    name: 'the path itself a link, followed, to a sound file',
    setup: () => {
      folder('dotfiles');
      file('dotfiles/config.json');
      folder('config');
      symlinkSync(join(base, 'dotfiles/config.json'), join(base, 'config/config.json'));
    },
    path: 'config/config.json',
    rule: { kind: 'file', followLink: true },
  },
  {
    name: 'the path itself a link, followed, to a file in a folder others can write',
    setup: () => {
      folder('open', 0o777);
      file('open/config.json');
      folder('config');
      symlinkSync('../open/config.json', join(base, 'config/config.json'));
    },
    path: 'config/config.json',
    rule: { kind: 'file', followLink: true },
    expected: { code: 'writable', at: 'open' },
  },
  {
    name: 'a link above the path, to a sound folder',
    setup: () => {
      folder('scratch/cache');
      symlinkSync(join(base, 'scratch/cache'), join(base, '.cache'));
      folder('scratch/cache/cairn');
    },
    path: '.cache/cairn',
    rule: { kind: 'directory' },
  },
  {
    name: 'a link above the path, into a folder others can write',
    setup: () => {
      folder('open', 0o777);
      folder('open/cache/cairn');
      symlinkSync(join(base, 'open/cache'), join(base, '.cache'));
    },
    path: '.cache/cairn',
    expected: { code: 'writable', at: 'open' },
  },
  {
    name: "a link above the path that is another user's",
    root: true,
    setup: () => {
      folder('real/cairn');
      symlinkSync(join(base, 'real'), join(base, 'link'));
      lchownSync(join(base, 'link'), NOBODY, NOBODY);
    },
    path: 'link/cairn',
    expected: { code: 'owner', at: 'link' },
  },
  {
    name: '`..` after a link goes to the parent of its target, as the kernel does',
    setup: () => {
      folder('open', 0o777);
      folder('open/inner');
      folder('open/cairn');
      folder('safe');
      symlinkSync(join(base, 'open/inner'), join(base, 'safe/link'));
      folder('safe/cairn');
    },
    // Lexically `safe/cairn`; the kernel reads `open/cairn`.
    path: 'safe/link/../cairn',
    expected: { code: 'writable', at: 'open' },
  },
  {
    name: 'a loop of links',
    setup: () => {
      folder('a');
      symlinkSync(join(base, 'a/y'), join(base, 'a/x'));
      symlinkSync(join(base, 'a/x'), join(base, 'a/y'));
    },
    path: 'a/x/cairn',
    expected: { code: 'link', at: 'a/x' },
  },
  {
    name: 'a missing path below sound folders',
    setup: () => folder('a'),
    path: 'a/b/c',
    expected: { code: 'missing', at: 'a/b' },
  },
  {
    name: 'a missing path below a folder others can write is that folder',
    setup: () => folder('open', 0o777),
    path: 'open/b/c',
    expected: { code: 'writable', at: 'open' },
  },
  {
    name: 'a file where a folder is wanted',
    setup: () => file('f'),
    path: 'f',
    rule: { kind: 'directory' },
    expected: { code: 'type', at: 'f' },
  },
  {
    name: 'a file in the way of a folder above',
    setup: () => file('f'),
    path: 'f/cairn',
    expected: { code: 'type', at: 'f' },
  },
  {
    name: 'a private folder that others can read',
    setup: () => folder('a', 0o750),
    path: 'a',
    rule: { kind: 'directory', private: true },
    expected: { code: 'readable', at: 'a' },
  },
];

describe('the ownership rule (StrictModes) for per-user paths', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
    if (testCase.root && !isRoot) {
      // Visible in the output: the case needs files of another user.
      console.warn(`skipped "${testCase.name}": needs root to chown files to uid ${NOBODY}`);
      return;
    }
    testCase.setup();
    // Joined by hand: `join` would fold a `..` lexically.
    const problem = checkUserPath(`${base}/${testCase.path}`, testCase.rule);
    if (!testCase.expected) {
      expect(problem).toBeUndefined();
      return;
    }
    expect(problem).toMatchObject({
      code: testCase.expected.code,
      path: join(base, testCase.expected.at),
    });
  });

  it('names the command that fixes each problem', () => {
    folder('open', 0o777);
    folder('open/mine');
    expect(checkUserPath(join(base, 'open/mine'))?.fix).toBe(`chmod go-w ${join(base, 'open')}`);
    folder('shared', 0o750);
    expect(checkUserPath(join(base, 'shared'), { private: true })?.fix).toBe(
      `chmod go-rwx ${join(base, 'shared')}`,
    );
    if (isRoot) {
      chownSync(folder('theirs', 0o755), NOBODY, NOBODY);
      const owner = checkUserPath(join(base, 'theirs'));
      expect(owner?.fix).toBe(`chown ${userInfo().username} ${join(base, 'theirs')}`);
      expect(owner?.problem).toBe(`belongs to another user (uid ${NOBODY}), not to you or root`);
    }
    expect(shellQuote("/a b/it's")).toBe(`'/a b/it'\\''s'`);
  });

  it('stops at the home: a folder above it that fails is the administrator’s', () => {
    folder('open', 0o777);
    const home = folder('open/home');
    folder('open/home/.cache/cairn');
    const inHome = join(home, '.cache/cairn');
    expect(checkUserPath(inHome, { home })).toBeUndefined();
    // The home itself and anything outside it are still checked.
    chmodSync(home, 0o777);
    expect(checkUserPath(inHome, { home })).toMatchObject({ code: 'writable', path: home });
    folder('open/elsewhere');
    expect(checkUserPath(join(base, 'open/elsewhere'), { home })).toMatchObject({
      code: 'writable',
      path: join(base, 'open'),
    });
    // Without that home (the password database's is another), the folder above fails.
    expect(checkUserPath(inHome)).toMatchObject({ code: 'writable', path: join(base, 'open') });
  });

  it('checks the path itself again each time, and folders above once per process', () => {
    const dir = folder('a/b');
    expect(checkUserPath(dir)).toBeUndefined();
    chmodSync(dir, 0o777);
    expect(checkUserPath(dir)).toMatchObject({ code: 'writable', path: dir });
  });
});

describe('per-user folders', () => {
  it('are created 0700 when missing below sound folders, and reused', () => {
    const dir = join(folder('state', 0o755), 'cairn', 'hooks');
    expect(privateDir(dir)).toBe(dir);
    expect(isPrivateDir(dir)).toBe(true);
    expect(privateDir(dir)).toBe(dir);
  });

  it('are not created below a folder others can write, and not used there', () => {
    const open = folder('open', 0o777);
    const dir = join(open, 'cache', 'cairn');
    expect(ensureUserDir(dir)).toMatchObject({ code: 'writable', path: open });
    expect(privateDir(dir)).toBeUndefined();
    expect(() => checkUserPath(join(open, 'cache'))).not.toThrow();
    expect(checkUserPath(join(open, 'cache'))).toMatchObject({ code: 'writable' });
  });

  it('say in one warning what is not used, why, and the command to run', () => {
    const open = folder('open', 0o777);
    const store = join(open, 'cairn', 'trusted-projects.json');
    const problem = checkUserPath(store)!;
    expect(userPathWarning('the trust store', store, problem, 'no project config is trusted')).toBe(
      `the trust store ${store} is not used (no project config is trusted): ${open} can be written by group or others; run \`chmod go-w ${open}\` (see docs/SECURITY.md#per-user-files-and-folders)`,
    );
  });
});
