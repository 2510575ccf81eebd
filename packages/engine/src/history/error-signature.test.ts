import { describe, expect, it } from 'vitest';
import { errorSignature } from './error-signature';
import {
  ALL_CASES,
  type CorpusCase,
  javascript as js,
  native,
  RUN_A,
  RUN_B,
  tools,
  variants,
} from './testing/signature-corpus';

const CASES = ALL_CASES;

const signatureOf = (c: CorpusCase, run = RUN_A) =>
  errorSignature(c.text(run), { tool: c.tool ?? 'Bash', command: c.command });

describe('errorSignature: one failure, two runs', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: same signature across paths, lines, times and ports',
    (_name, c) => {
      // A text written over the volatile parts must differ between the runs (else the test proves nothing).
      if (c.volatile) expect(c.text(RUN_A)).not.toBe(c.text(RUN_B));
      const a = signatureOf(c, RUN_A);
      const b = signatureOf(c, RUN_B);
      expect(b.normalized).toBe(a.normalized);
      expect(b.signature).toBe(a.signature);
      expect(a.family).toBe(c.family);
      expect(a.signature).toMatch(/^[0-9a-f]{16}$/);
    },
  );

  it('keeps no path, time, port or id in the normalized key', () => {
    for (const c of CASES) {
      const { normalized } = signatureOf(c, RUN_B);
      for (const volatile of [RUN_B.root, RUN_B.home, RUN_B.tmp, RUN_B.uuid, RUN_B.sha, RUN_B.addr])
        expect(normalized, c.name).not.toContain(volatile);
      expect(normalized, c.name).not.toContain(String(RUN_B.port));
    }
  });
});

const DIFFERENT: [CorpusCase, CorpusCase][] = [
  [js.tsAssignable, js.tsMissingName],
  [js.nodeModuleNotFound, js.nodeOtherPackage],
  [js.nodeAddressInUse, js.nodeTypeError],
  [js.vitestFailure, js.vitestOtherTest],
  [js.npmEresolve, js.npmE404],
  [js.npmE404, js.npmEacces],
  [js.pnpmOutdatedLockfile, js.pnpmNoVersion],
  [native.pythonModule, native.pythonOtherModule],
  [native.pythonKeyError, native.pythonFileNotFound],
  [native.pipNoMatch, native.pipExternallyManaged],
  [native.pytestFailure, native.pytestOtherTest],
  [native.goUndefined, native.goMissingSum],
  [native.goTestFailure, native.goPanic],
  [native.rustMismatched, native.rustBorrow],
  [native.javaNpe, native.javaCausedBy],
  [tools.bashNotFound, tools.bashOtherNotFound],
  [tools.gitRejected, tools.gitRejectedNonFastForward],
  [tools.gitNotRepo, tools.gitConflict],
  [tools.dockerDaemon, tools.dockerPortTaken],
  [variants.npmMissingScript, js.npmE404],
  [variants.nodeCjsNotFound, js.nodeModuleNotFound],
  [variants.jestSuiteFailed, js.jestFailure],
  [variants.pythonSyntax, native.pythonKeyError],
  [variants.kotlinGradle, native.gradleTask],
  [variants.cargoNoPackage, native.rustMismatched],
  [variants.cmdNotRecognized, tools.bashNotFound],
  [variants.dockerPullDenied, tools.dockerDaemon],
  [variants.gitAuthFailed, tools.gitRejected],
  [variants.gitPathspec, tools.gitNotRepo],
];

describe('errorSignature: failures that need different fixes', () => {
  it.each(DIFFERENT.map(([a, b]) => [a.name, b.name, a, b] as const))('%s ≠ %s', (_a, _b, a, b) => {
    expect(signatureOf(a).signature).not.toBe(signatureOf(b).signature);
  });

  it('all corpus signatures are distinct', () => {
    const signatures = new Map<string, string>();
    for (const c of CASES) {
      if (c === js.pnpmScriptWrapsVitest) continue;
      const { signature } = signatureOf(c);
      expect(signatures.get(signature), `${c.name} collides`).toBeUndefined();
      signatures.set(signature, c.name);
    }
  });

  it('one text from two command families gets two signatures (pnpm install vs pnpm test)', () => {
    const text = js.nodeTypeError.text(RUN_A);
    const install = errorSignature(text, { tool: 'Bash', command: 'pnpm install' });
    const test = errorSignature(text, { tool: 'Bash', command: 'pnpm --filter api test' });
    expect(install.signature).not.toBe(test.signature);
    expect(install.normalized).toContain('[shell: pnpm install]');
    expect(test.normalized).toContain('[shell: pnpm test]');
  });
});

describe('errorSignature: what does not count', () => {
  it('the harness: Bash (Claude Code, Codex), bash (OpenCode) and exec (OpenClaw) are one shell', () => {
    const text = native.pythonModule.text(RUN_A);
    const names = ['Bash', 'bash', 'exec', 'shell'].map(
      (tool) => errorSignature(text, { tool, command: 'python3 manage.py migrate' }).signature,
    );
    expect(new Set(names).size).toBe(1);
  });

  it("a package manager's script wrapper: the test failure under it is the signature", () => {
    expect(signatureOf(js.pnpmScriptWrapsVitest).signature).toBe(
      signatureOf(js.vitestFailure).signature,
    );
  });

  it('the order the tool printed a set of errors in', () => {
    const first =
      "a.ts(1,1): error TS2304: Cannot find name 'x'.\nb.ts(2,2): error TS2339: Property 'y' does not exist on type 'Z'.";
    const swapped = first.split('\n').reverse().join('\n');
    expect(errorSignature(swapped).signature).toBe(errorSignature(first).signature);
  });

  it('colour codes and Windows line ends', () => {
    const plain = native.pythonKeyError.text(RUN_A);
    const coloured = `\x1b[31m${plain.replaceAll('\n', '\r\n')}\x1b[0m`;
    expect(errorSignature(coloured).signature).toBe(errorSignature(plain).signature);
  });

  it('reads the human key: family, code and stable words', () => {
    expect(signatureOf(js.tsAssignable).normalized).toBe(
      "typescript: TS2345 Argument of type 'string' is not assignable to parameter of type 'number'. [shell: tsc]",
    );
    expect(signatureOf(tools.zshNotFound).normalized).toBe(
      'shell: command not found: jq [shell: jq]',
    );
    expect(errorSignature('').normalized).toBe('generic: (no output)');
  });
});

describe('errorSignature on outputs from the bench corpus (bench/fixtures/failures)', () => {
  const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

  it('git: the branch, path or revision typed does not count', () => {
    const a = sig(
      "error: pathspec 'feature/login' did not match any file(s) known to git",
      'git checkout feature/login',
    );
    const b = sig(
      "error: pathspec 'fix-cache' did not match any file(s) known to git",
      'git checkout fix-cache',
    );
    expect(a.signature).toBe(b.signature);
    const up = (branch: string) =>
      sig(
        `fatal: The current branch ${branch} has no upstream branch.\nTo push the current branch and set the remote as upstream, use`,
        'git push',
      );
    expect(up('wip/search').signature).toBe(up('topic-42').signature);
  });

  it('javac: the symbol it could not find tells two fixes apart', () => {
    const missing = (symbol: string) =>
      sig(
        `App.java:4: error: cannot find symbol\n    x;\n    ^\n  symbol:   ${symbol}\n  location: class App\n1 error`,
        'javac -d out App.java',
      );
    expect(missing('variable Config').signature).not.toBe(missing('class List').signature);
    expect(missing('class List').normalized).toContain('cannot find symbol: class List');
  });

  it('java: the launcher and parse errors lose the class name and the input', () => {
    const launcher = (cls: string) =>
      sig(
        `Error: Could not find or load main class com.example.${cls}\nCaused by: java.lang.ClassNotFoundException: com.example.${cls}`,
        'java -cp out x',
      );
    expect(launcher('App').signature).toBe(launcher('Main').signature);
    const parse = (input: string) =>
      sig(
        `Exception in thread "main" java.lang.NumberFormatException: For input string: "${input}"\n\tat java.base/java.lang.Integer.parseInt(Integer.java:652)\n\tat App.main(App.java:5)`,
        'java -cp out App',
      );
    expect(parse('x0').signature).toBe(parse('abc').signature);
  });

  it('shell: a script names itself; set -u and make recipes have their own keys', () => {
    expect(
      sig('deploy.sh: line 2: helm: command not found', 'bash deploy.sh').normalized,
    ).toContain('command not found: helm');
    expect(
      sig('scripts/infra.sh: 3: flyctl: not found', 'sh scripts/infra.sh').normalized,
    ).toContain('command not found: flyctl');
    expect(
      sig('release.sh: line 2: DEPLOY_ENV: unbound variable', 'bash release.sh').normalized,
    ).toContain('unbound variable: DEPLOY_ENV');
    const make = (program: string) =>
      sig(
        `${program} x\nmake: ${program}: No such file or directory\nmake: *** [Makefile:2: gen] Error 127`,
        'make gen',
      );
    expect(make('protoc').signature).not.toBe(make('buf').signature);
  });

  it('pytest: the test folder does not count; pnpm and docker usage errors are read', () => {
    const failed = (id: string) =>
      sig(
        `=== short test summary info ===\nFAILED ${id} - assert 1 == 2\n=== 1 failed in 0.01s ===`,
        'pytest -q',
      );
    expect(failed('tests/test_math.py::test_add').signature).toBe(
      failed('test_math.py::test_add').signature,
    );
    const pnpm = (name: string) =>
      sig(
        `\u2009ERROR\u2009 Expected double-quoted property name in JSON at position 38 while parsing '{ "name": "${name}", }' in /x/package.json`,
        'pnpm install',
      );
    expect(pnpm('shop').signature).toBe(pnpm('web-ui').signature);
    expect(pnpm('shop').family).toBe('pnpm');
    expect(
      sig(
        "unknown flag: --detached\n\nRun 'docker run --help' for more information",
        'docker run --detached x',
      ).family,
    ).toBe('docker');
  });
});

describe('errorSignature: the file a quoted path names, and rustc type labels', () => {
  const sig = (text: string, command: string) => errorSignature(text, { tool: 'Bash', command });

  it('node and python keep the file name of a quoted path, not its folders', () => {
    const node = (path: string) =>
      sig(
        `node:fs:448\n\nError: ENOENT: no such file or directory, open '${path}'\n    at Object.readFileSync (node:fs:448:20)\n\nNode.js v20.20.2`,
        'node app.mjs',
      );
    expect(node('/tmp/w-1/data/users.csv').signature).toBe(node('/srv/x/data/users.csv').signature);
    expect(node('/tmp/w-1/data/users.csv').signature).not.toBe(
      node('/tmp/w-1/data/data.csv').signature,
    );
    const python = (path: string) =>
      sig(
        `Traceback (most recent call last):\n  File "/x/app.py", line 3, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: '${path}'`,
        'python3 app.py',
      );
    expect(python('/a/conf/settings.toml').signature).not.toBe(
      python('/a/conf/secrets.toml').signature,
    );
  });

  it('rustc: mismatched types keep their expected/found label', () => {
    const mismatch = (expected: string, found: string) =>
      sig(
        `error[E0308]: mismatched types\n --> src/main.rs:3:18\n  |\n3 |     let n: ${expected} = x;\n  |            ---   ^ expected \`${expected}\`, found ${found}\n`,
        'cargo build',
      );
    expect(mismatch('i32', '`&str`').signature).not.toBe(mismatch('String', 'integer').signature);
    expect(mismatch('i32', '`&str`').normalized).toContain('expected `i32`, found `&str`');
  });
});
