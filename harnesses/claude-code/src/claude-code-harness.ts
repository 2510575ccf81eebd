import type { HarnessAdapter } from '@cairn/core';
import { claudeCodeFidelity } from './claude-code-fidelity';
import { claudeCodeStatus, installClaudeCode, uninstallClaudeCode } from './claude-code-install';
import { deliverClaudeCode } from './deliver';

/** The Claude Code adapter `cairn install | uninstall | hook claude-code` uses. */
export function createClaudeCodeHarness(): HarnessAdapter {
  return {
    declaration: claudeCodeFidelity,
    deliver: deliverClaudeCode,
    install: installClaudeCode,
    uninstall: uninstallClaudeCode,
    status: claudeCodeStatus,
  };
}
