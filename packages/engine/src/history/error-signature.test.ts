import { describe, expect, it } from 'vitest';
import { ALL_CASES } from './corpus/all-cases';
import { type CorpusCase, RUN_A, RUN_B } from './corpus/corpus-types';
import * as js from './corpus/javascript-corpus';
import * as native from './corpus/native-corpus';
import * as tools from './corpus/tools-corpus';
import * as variants from './corpus/variant-corpus';
import { errorSignature } from './error-signature';

const CASES = ALL_CASES;

const signatureOf = (c: CorpusCase, run = RUN_A) =>
  errorSignature(c.text(run), { tool: c.tool ?? 'Bash', command: c.command });

describe('errorSignature: one failure, two runs', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: same signature across paths, lines, times and ports',
    (_name, c) => {
      // A text written over the volatile parts must differ between the runs (else the test proves nothing).
      if (c.text.length > 0) expect(c.text(RUN_A)).not.toBe(c.text(RUN_B));
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
