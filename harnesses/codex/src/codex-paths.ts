import { join, resolve } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';

/**
 * Where Codex 0.169 reads what Cairn writes. User scope: $CODEX_HOME
 * (default ~/.codex) holds config.toml and hooks.json. Project scope: the
 * project's `.codex/` layer holds hooks.json and config.toml, which Codex
 * loads only for a trusted project. Hook trust lives in the user's
 * config.toml in both cases (a project cannot trust its own hooks).
 */
export interface CodexFiles {
  codexHome: string;
  /** $CODEX_HOME/config.toml: hook trust, `[projects]` trust, user-scope MCP server. */
  userConfig: string;
  /** The config.toml of the scope's layer, which gets `[mcp_servers.cairn]`. */
  layerConfig: string;
  /** The hooks.json of the scope's layer. */
  hooksFile: string;
}

export function codexFiles(options: Omit<HarnessInstallOptions, 'dryRun'>): CodexFiles {
  const configured = options.env?.CODEX_HOME?.trim();
  const codexHome = configured ? resolve(configured) : join(options.homeDir, '.codex');
  const userConfig = join(codexHome, 'config.toml');
  if (options.scope === 'user') {
    return {
      codexHome,
      userConfig,
      layerConfig: userConfig,
      hooksFile: join(codexHome, 'hooks.json'),
    };
  }
  const layer = join(resolve(options.projectRoot), '.codex');
  return {
    codexHome,
    userConfig,
    layerConfig: join(layer, 'config.toml'),
    hooksFile: join(layer, 'hooks.json'),
  };
}
