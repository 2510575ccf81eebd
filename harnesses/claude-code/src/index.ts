import pkg from '../package.json' with { type: 'json' };

export { claudeCodeFidelity } from './claude-code-fidelity';
export { createClaudeCodeHarness } from './claude-code-harness';
export { type ClaudeCodeFiles, claudeCodeFiles } from './claude-code-paths';
export { deliverClaudeCode } from './deliver';
export {
  CLAUDE_CODE_HOOK_EVENTS,
  type ClaudeCodeHookEvent,
  type ClaudeCodePayload,
  parseClaudeCodePayload,
} from './hook-payloads';
export { hookCommand, MCP_SERVER_NAME, shellQuote } from './settings-edits';

export const VERSION: string = pkg.version;
