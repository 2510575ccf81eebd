import { CairnError } from '@cairn/core';
import type { HarnessAdapter } from '@cairn/engine';
import { deliverClaudeCode } from '@cairn/harness-claude-code';
import { deliverCodex } from '@cairn/harness-codex';

/**
 * The harnesses that start `cairn hook` as a process per event, and their
 * deliveries (payload schemas and the mapping onto the lifecycle) without
 * the install code of their adapters. bin.ts loads the hook bundle
 * (hook-main.ts) for these alone; OpenCode and OpenClaw run Cairn inside
 * their own process, and a `cairn hook` of theirs goes through main.cjs.
 */
export const PROCESS_HOOK_DELIVERIES: Readonly<Record<string, HarnessAdapter['deliver']>> = {
  'claude-code': deliverClaudeCode,
  codex: deliverCodex,
};

export async function loadProcessHookDelivery(id: string): Promise<HarnessAdapter['deliver']> {
  const deliver = Object.hasOwn(PROCESS_HOOK_DELIVERIES, id)
    ? PROCESS_HOOK_DELIVERIES[id]
    : undefined;
  if (!deliver) {
    throw new CairnError('INVALID_INPUT', `The hook bundle has no delivery for harness "${id}"`, {
      hint: `it serves ${Object.keys(PROCESS_HOOK_DELIVERIES).join(', ')}; run hooks through the \`cairn\` command`,
    });
  }
  return deliver;
}
