import { join } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';

/** The files a Cairn install touches in one scope. */
export interface ClaudeCodeFiles {
  /** Hooks and the `mcp__cairn` permission. */
  settings: string;
  /** Where the `cairn` MCP server is registered. */
  mcp: string;
  /** Project scope: the approval of `.mcp.json`'s server (`enabledMcpjsonServers`). */
  approval?: string;
}

type PathOptions = Pick<HarnessInstallOptions, 'scope' | 'projectRoot' | 'homeDir' | 'env'>;

/** Claude Code keeps its user config in CLAUDE_CONFIG_DIR when set, else in ~/.claude and ~/.claude.json. */
export function claudeCodeFiles(options: PathOptions): ClaudeCodeFiles {
  if (options.scope === 'project') {
    const dir = join(options.projectRoot, '.claude');
    return {
      settings: join(dir, 'settings.json'),
      mcp: join(options.projectRoot, '.mcp.json'),
      approval: join(dir, 'settings.local.json'),
    };
  }
  const configDir = options.env?.CLAUDE_CONFIG_DIR?.trim();
  if (configDir) {
    return { settings: join(configDir, 'settings.json'), mcp: join(configDir, '.claude.json') };
  }
  return {
    settings: join(options.homeDir, '.claude', 'settings.json'),
    mcp: join(options.homeDir, '.claude.json'),
  };
}
