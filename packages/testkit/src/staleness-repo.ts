import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A scripted git history for staleness checks of units that cite code
 * (docs/MAINTENANCE.md): a first commit with several functions, then
 * commits that move one to another file, change one's body, rename one,
 * delete one's file, reformat one (whitespace only) and leave the rest
 * alone. Each case has the unit text that cites it and the state a check
 * at the last commit must give. Used by the engine's tests and `pnpm bench
 * maintenance`.
 */

export type ExpectedAnchorState = 'fresh' | 'moved' | 'changed' | 'deleted' | 'none';

export interface StalenessCase {
  name: string;
  /** The unit's text, citing the code. */
  text: string;
  /** The state at the final HEAD (`none`: the unit cites nothing anchorable). */
  expected: ExpectedAnchorState;
}

export interface StalenessRepo {
  dir: string;
  cases: StalenessCase[];
  /** Applies the later commits (move, change, rename, delete, reformat). */
  advance(): void;
  git(...args: string[]): string;
}

const fn = (name: string, body: string) =>
  `export function ${name}(input: string): string {\n  ${body}\n}\n`;

const FIRST: Record<string, string> = {
  'src/config/load-config.ts': `${fn('loadConfig', "return input.trim() + '.json';")}\n${fn('configPath', "return 'config/' + input;")}`,
  'src/auth/tokens.ts': `${fn('signToken', "return 'signed:' + input;")}\n${fn('verifyToken', "return input.startsWith('signed:') ? 'ok' : 'bad';")}`,
  'src/billing/invoice.ts': fn('renderInvoice', "return '<invoice>' + input + '</invoice>';"),
  'src/legacy/importer.ts': fn('importLegacyCsv', "return input.split(',').join(';');"),
  'src/util/slug.ts': fn('slugify', "return input.toLowerCase().replace(/ /g, '-');"),
  'src/util/format.ts': fn('formatMoney', "return '$' + input;"),
  'README.md': '# Fixture\n\nRun the tests with the test script.\n',
};

export const STALENESS_CASES: StalenessCase[] = [
  {
    name: 'untouched function',
    text: 'Config files are read by `loadConfig` in src/config/load-config.ts; it appends .json.',
    expected: 'fresh',
  },
  {
    name: 'untouched file, other function changed',
    text: '`configPath` in src/config/load-config.ts prefixes config/ to a name.',
    expected: 'fresh',
  },
  {
    name: 'moved to another file',
    text: 'Tokens are signed by `signToken` (src/auth/tokens.ts) with a signed: prefix.',
    expected: 'moved',
  },
  {
    name: 'body changed',
    text: '`verifyToken` in src/auth/tokens.ts returns ok for a signed token.',
    expected: 'changed',
  },
  {
    name: 'renamed in place',
    text: 'Invoices are rendered as XML by `renderInvoice` in src/billing/invoice.ts.',
    expected: 'changed',
  },
  {
    name: 'file and function deleted',
    text: 'Old CSV exports go through `importLegacyCsv` in src/legacy/importer.ts.',
    expected: 'deleted',
  },
  {
    name: 'symbol without a path, untouched',
    text: 'Use `slugify` to build URL slugs from titles.',
    expected: 'fresh',
  },
  {
    name: 'reformatted only',
    text: '`formatMoney` in src/util/format.ts prefixes a dollar sign.',
    expected: 'fresh',
  },
  {
    name: 'prose, no code',
    text: 'The team prefers small pull requests reviewed within a day.',
    expected: 'none',
  },
];

/** The commits `advance()` applies: files written, a folder removed, and the message. */
const LATER_COMMITS: { write?: Record<string, string>; remove?: string; message: string }[] = [
  {
    // Move signToken to its own file; verifyToken stays, with a new body.
    write: {
      'src/auth/sign.ts': fn('signToken', "return 'signed:' + input;"),
      'src/auth/tokens.ts': fn(
        'verifyToken',
        "return input.startsWith('signed:') && input.length > 7 ? 'ok' : 'bad';",
      ),
    },
    message: 'move signToken, harden verifyToken',
  },
  {
    write: {
      'src/billing/invoice.ts': fn(
        'renderInvoiceHtml',
        "return '<invoice>' + input + '</invoice>';",
      ),
    },
    message: 'rename renderInvoice',
  },
  { remove: 'src/legacy', message: 'drop the legacy importer' },
  {
    write: {
      'src/util/format.ts': `export function formatMoney(input: string): string {\n\n    return '$' + input;\n}\n`,
      'src/config/load-config.ts': `${fn('loadConfig', "return input.trim() + '.json';")}\n${fn('configPath', "return 'config/' + input;")}\n${fn('configDir', "return 'config';")}`,
    },
    message: 'reformat, add configDir',
  },
];

/** Git in `dir` with a fixed identity and no system config or hooks. */
function gitIn(dir: string, home: string): (...args: string[]) => string {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
  return (...args: string[]) =>
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: dir,
      env,
      encoding: 'utf8',
    }).trim();
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export function makeStalenessRepo(dir: string, home: string): StalenessRepo {
  mkdirSync(dir, { recursive: true });
  const git = gitIn(dir, home);
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
  };
  git('init', '-q', '-b', 'main');
  writeFiles(dir, FIRST);
  commit('first');
  return {
    dir,
    cases: STALENESS_CASES,
    git,
    advance() {
      for (const later of LATER_COMMITS) {
        if (later.write) writeFiles(dir, later.write);
        if (later.remove) rmSync(join(dir, later.remove), { recursive: true });
        commit(later.message);
      }
    },
  };
}
