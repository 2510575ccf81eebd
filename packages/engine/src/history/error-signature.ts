// node:crypto is loaded on first use: a hook process that hashes nothing never loads it.
import { sha256Hex } from '@cairn/core';
import { commandFamily, commandFile, toolFamily } from './command-family';
import { dockerRule } from './rules/docker-rules';
import { genericRule } from './rules/generic-rule';
import { gitRule } from './rules/git-rules';
import { goRule, goTestRule } from './rules/go-rules';
import { gradleRule, javaRule, mavenRule } from './rules/java-rules';
import { avaRule, nodeTestSpecRule, playwrightRule } from './rules/js-runner-rules';
import { jestRule, mochaRule, vitestRule } from './rules/js-test-rules';
import { junitRule } from './rules/junit-rules';
import { junitXmlRule } from './rules/junit-xml-rule';
import { biomeRule, eslintRule, mypyRule, pythonLintRule } from './rules/lint-rules';
import { nodeRule } from './rules/node-rules';
import { nodeTestDotRule } from './rules/node-test-dot-rule';
import { npmRule, pnpmRule, scriptWrapperRule, yarnRule } from './rules/package-manager-rules';
import { pipRule, pytestRule, pythonRule, unittestRule } from './rules/python-rules';
import { phpunitRule, rspecRule } from './rules/ruby-php-rules';
import { mochaTapRule, vitestTapRule } from './rules/runner-tap-rules';
import { cargoTestRule, rustRule } from './rules/rust-rules';
import { makeRule, shellRule } from './rules/shell-rules';
import { avaTapRule, nodeTestTapRule, tapRule } from './rules/tap-rules';
import { typescriptRule } from './rules/typescript-rules';
import { stripAnsi } from './scrub-volatile';
import { keyPartText, type SignatureRule } from './signature-rule';

/**
 * The rules, most specific first; the first that finds a key wins. Test
 * runners come before the languages (a failed test prints a stack) and
 * key a failure by the failed tests' identity (rules/test-identity.ts), the
 * languages before the package managers' "script failed" wrappers, and
 * the generic rule takes anything left.
 */
export const SIGNATURE_RULES: readonly SignatureRule[] = [
  shellRule,
  dockerRule,
  gitRule,
  npmRule,
  pnpmRule,
  yarnRule,
  typescriptRule,
  eslintRule,
  biomeRule,
  vitestRule,
  jestRule,
  mochaRule,
  avaRule,
  nodeTestSpecRule,
  nodeTestDotRule,
  nodeTestTapRule,
  avaTapRule,
  vitestTapRule,
  tapRule,
  mochaTapRule,
  junitXmlRule,
  playwrightRule,
  pytestRule,
  unittestRule,
  goTestRule,
  cargoTestRule,
  junitRule,
  rspecRule,
  phpunitRule,
  pipRule,
  mypyRule,
  pythonLintRule,
  pythonRule,
  rustRule,
  goRule,
  mavenRule,
  gradleRule,
  javaRule,
  nodeRule,
  scriptWrapperRule,
  makeRule,
  genericRule,
];

/** The tool and command an error came from: part of the signature when given. */
export interface SignatureContext {
  /** The harness's tool name (`Bash`, `bash`, `exec`, `shell` all read as `shell`). */
  tool?: string;
  /**
   * The command line that failed; its family (`pnpm install`) counts, and
   * the one file it names stands for the file an output does not name.
   */
  command?: string;
}

export interface ErrorSignature {
  /** 16 hex digits: the first 64 bits of the SHA-256 of `normalized`. */
  signature: string;
  /** The rule that read the error: `typescript`, `npm`, `python`, ..., `generic`. */
  family: string;
  /** The human-readable key the signature hashes: family, key text, and `[tool: command family]`. */
  normalized: string;
}

/** How much of an error is read: its first 64 KiB and last 192 KiB (the end holds the summary). */
export const SIGNATURE_HEAD_CHARS = 64 * 1024;
export const SIGNATURE_TAIL_CHARS = 192 * 1024;
/** Lines are cut here before any rule reads them. */
export const SIGNATURE_LINE_CHARS = 1000;
const KEY_CHARS = 600;

function linesOf(text: string): string[] {
  const bounded =
    text.length <= SIGNATURE_HEAD_CHARS + SIGNATURE_TAIL_CHARS
      ? text
      : `${text.slice(0, SIGNATURE_HEAD_CHARS)}\n${text.slice(-SIGNATURE_TAIL_CHARS)}`;
  // A NUL marks a key part a rule has scrubbed (signature-rule.ts); none comes from the text.
  return stripAnsi(bounded.replaceAll('\u0000', ''))
    .split(/\r?\n|\r/)
    .map((line) => line.slice(0, SIGNATURE_LINE_CHARS));
}

/**
 * A signature for an error text that stays the same across runs and
 * machines (paths, line numbers, hashes, times, ports and ids do not count)
 * and differs between errors that need different fixes (the error's class
 * or code, its stable words, and the tool and command family that failed).
 */
export function errorSignature(text: string, context: SignatureContext = {}): ErrorSignature {
  const family = commandFamily(context.command);
  const input = {
    lines: linesOf(text),
    commandFamily: family,
    commandFile: commandFile(context.command),
  };
  let rule = genericRule;
  let parts: string[] | undefined;
  for (const candidate of SIGNATURE_RULES) {
    parts = candidate.key(input);
    if (parts) {
      rule = candidate;
      break;
    }
  }
  const key = (parts ?? ['(no output)']).map(keyPartText).join(' | ').slice(0, KEY_CHARS);
  const where = [toolFamily(context.tool), family].filter(Boolean).join(': ');
  const normalized = `${rule.family}: ${key}${where ? ` [${where}]` : ''}`;
  const signature = sha256Hex(normalized).slice(0, 16);
  return { signature, family: rule.family, normalized };
}
