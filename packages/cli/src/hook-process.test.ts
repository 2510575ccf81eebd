import { deliverClaudeCode } from '@cairn/harness-claude-code';
import { deliverCodex } from '@cairn/harness-codex';
import { describe, expect, it } from 'vitest';
import { loadProcessHookDelivery, PROCESS_HOOK_DELIVERIES } from './hook-deliveries';
import { PROCESS_HOOK_HARNESSES, runsProcessPerHook } from './hook-process';
import { servedCommand } from './hook-server/hook-protocol';

describe('the harnesses that run a process per hook (one list)', () => {
  it('are the ones the hook bundle delivers and the hook server serves', async () => {
    expect(Object.keys(PROCESS_HOOK_DELIVERIES).sort()).toEqual([...PROCESS_HOOK_HARNESSES].sort());
    for (const id of PROCESS_HOOK_HARNESSES) {
      expect(runsProcessPerHook(id)).toBe(true);
      expect(servedCommand(['hook', id, 'UserPromptSubmit'])).toBe(true);
      expect(await loadProcessHookDelivery(id)).toBe(PROCESS_HOOK_DELIVERIES[id]);
    }
  });

  it('hands each harness its own delivery', async () => {
    expect(await loadProcessHookDelivery('claude-code')).toBe(deliverClaudeCode);
    expect(await loadProcessHookDelivery('codex')).toBe(deliverCodex);
  });

  it('leaves out the in-process harnesses and anything else', async () => {
    for (const id of ['opencode', 'openclaw', 'toString', '', undefined]) {
      expect(runsProcessPerHook(id)).toBe(false);
      expect(servedCommand(['hook', String(id), 'x'])).toBe(false);
    }
    await expect(loadProcessHookDelivery('opencode')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
