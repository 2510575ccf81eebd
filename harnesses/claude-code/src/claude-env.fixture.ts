/** The environment the e2e tests run the real `claude` CLI (and `cairn`) in. */
import { delimiter, join } from 'node:path';

/**
 * A private HOME with its XDG folders, Claude Code pointed at the scripted
 * model server, no telemetry and MCP tools offered directly (no tool
 * search). `pathDirs` go first on PATH, e.g. a folder holding `cairn`, as
 * after `npm i -g @cairn/cli`.
 */
export function claudeEnv(options: {
  home: string;
  modelUrl: string;
  pathDirs: string[];
}): NodeJS.ProcessEnv {
  const { home, modelUrl, pathDirs } = options;
  return {
    PATH: [...pathDirs, process.env.PATH].join(delimiter),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    ENABLE_TOOL_SEARCH: 'false',
  };
}
