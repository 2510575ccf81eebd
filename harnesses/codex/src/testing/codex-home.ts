import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export interface CodexHomeOptions {
  /** The private HOME; Codex's config goes to `<home>/.codex`. */
  home: string;
  /** The scripted model server (without /v1). */
  modelUrl: string;
  /** Project folders the user has trusted (their answer to Codex's trust prompt). */
  trusted: string[];
  /** Folders put first on PATH, e.g. one holding `cairn` as after `npm i -g @cairn/cli`. */
  pathDirs: string[];
}

/**
 * A user's HOME for the real Codex CLI: `$CODEX_HOME/config.toml` points
 * Codex at the scripted model server (never asks for approval) and trusts
 * `trusted`. Returns the environment to run `codex` and `cairn` in.
 */
export async function makeCodexHome(options: CodexHomeOptions): Promise<Record<string, string>> {
  const { home, modelUrl, trusted, pathDirs } = options;
  const codexHome = join(home, '.codex');
  await mkdir(codexHome, { recursive: true });
  const projects = trusted.flatMap((dir) => [
    `[projects.${JSON.stringify(dir)}]`,
    'trust_level = "trusted"',
    '',
  ]);
  await writeFile(
    join(codexHome, 'config.toml'),
    [
      'model = "e2e-model"',
      'model_provider = "e2e"',
      'approval_policy = "never"',
      'sandbox_mode = "read-only"',
      '',
      '[model_providers.e2e]',
      'name = "e2e"',
      `base_url = "${modelUrl}/v1"`,
      'env_key = "CODEX_E2E_KEY"',
      'wire_api = "responses"',
      '',
      ...projects,
    ].join('\n'),
  );
  return {
    PATH: [...pathDirs, process.env.PATH ?? ''].join(delimiter),
    HOME: home,
    CODEX_HOME: codexHome,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    CODEX_E2E_KEY: 'dummy',
  };
}
