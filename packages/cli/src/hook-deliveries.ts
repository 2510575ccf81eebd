import type { HarnessAdapter } from '@cairn/core';
import { CairnError } from '@cairn/core';
import { deliverClaudeCode } from '@cairn/harness-claude-code';
import { deliverCodex } from '@cairn/harness-codex';
import {
  PROCESS_HOOK_HARNESSES,
  type ProcessHookHarness,
  runsProcessPerHook,
} from './hook-process';

/**
 * The deliveries (payload schemas and the mapping onto the lifecycle) of
 * the harnesses that start a process per hook (hook-process.ts),
 * without the install code of their adapters.
 */
export const PROCESS_HOOK_DELIVERIES: Readonly<
  Record<ProcessHookHarness, HarnessAdapter['deliver']>
> = {
  'claude-code': deliverClaudeCode,
  codex: deliverCodex,
};

export async function loadProcessHookDelivery(id: string): Promise<HarnessAdapter['deliver']> {
  if (!runsProcessPerHook(id)) {
    throw new CairnError('INVALID_INPUT', `The hook bundle has no delivery for harness "${id}"`, {
      hint: `it serves ${PROCESS_HOOK_HARNESSES.join(', ')}; run hooks through the \`cairn\` command`,
    });
  }
  return PROCESS_HOOK_DELIVERIES[id];
}
