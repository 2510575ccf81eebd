import { join } from 'node:path';
import { userConfigPath } from '../settings/resolve-settings';
import { TRUST_STORE_FILE } from '../settings/trust-store';
import { checkUserPath, type UserPathProblem, type UserPathRule } from './owner-rule';
import { userPathWarning } from './user-dir';
import { MCP_TOKEN_FILE, userCacheDir, userStateDir } from './user-dirs';

/** One per-user path that fails the ownership rule, as `cairn doctor` and `cairn status` report it. */
export interface UserPathWarning {
  /** What the path is for ("the trust store"). */
  subject: string;
  path: string;
  problem: UserPathProblem;
  /** What Cairn does instead of using it. */
  consequence: string;
  /** The whole warning line, with the command that fixes it. */
  message: string;
}

interface Check {
  subject: string;
  path: string;
  rule: UserPathRule;
  consequence: string;
  /** Checked only when the folder holding them passes. */
  inside?: Check[];
}

function perUserPaths(env: NodeJS.ProcessEnv, homeDir: string | undefined): Check[] {
  const cache = userCacheDir(env, homeDir);
  const state = userStateDir(env, homeDir);
  const hookConsequence = 'no hook server: each hook event runs in its own process';
  return [
    {
      subject: 'the user config',
      path: userConfigPath(env, homeDir),
      rule: { kind: 'file', followLink: true },
      consequence: 'its settings are ignored',
    },
    {
      subject: "Cairn's cache folder",
      path: cache,
      rule: { kind: 'directory' },
      consequence: `no code cache, and ${hookConsequence}`,
      inside: [
        {
          subject: 'the code cache folder',
          path: join(cache, 'compile-cache'),
          rule: { kind: 'directory', private: true },
          consequence: 'the code cache is off',
        },
        {
          subject: "the hook server's socket folder",
          path: join(cache, 'hooks'),
          rule: { kind: 'directory', private: true },
          consequence: hookConsequence,
        },
      ],
    },
    {
      subject: "Cairn's state folder",
      path: state,
      rule: { kind: 'directory' },
      consequence:
        'no project config is trusted, `cairn trust`, `cairn mcp --http` and `cairn install --user` refuse to run',
      inside: [
        {
          subject: 'the trust store',
          path: join(state, TRUST_STORE_FILE),
          rule: { kind: 'file' },
          consequence: 'no project config is trusted',
        },
        {
          subject: 'the MCP token file',
          path: join(state, MCP_TOKEN_FILE),
          rule: { kind: 'file', private: true },
          consequence: '`cairn mcp --http` refuses to start',
        },
      ],
    },
  ];
}

function collect(checks: Check[], warnings: UserPathWarning[]): void {
  for (const check of checks) {
    const problem = checkUserPath(check.path, check.rule);
    if (!problem) {
      if (check.inside) collect(check.inside, warnings);
      continue;
    }
    if (problem.code === 'missing') continue;
    const { subject, path, consequence } = check;
    const message = userPathWarning(subject, path, problem, consequence);
    warnings.push({ subject, path, problem, consequence, message });
  }
}

/**
 * Every per-user path Cairn uses that exists and fails the ownership rule
 * (missing ones are created, or not needed, when used): the user config,
 * the cache folder (code cache, hook socket folder) and the state folder
 * (trust store, MCP token).
 */
export function userPathWarnings(
  options: { env?: NodeJS.ProcessEnv; homeDir?: string } = {},
): UserPathWarning[] {
  const warnings: UserPathWarning[] = [];
  collect(perUserPaths(options.env ?? process.env, options.homeDir), warnings);
  return warnings;
}
