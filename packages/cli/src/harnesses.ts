import type { HarnessAdapter } from '@cairn/core';
import { CairnError } from '@cairn/core';

/**
 * The harness adapters `cairn install | uninstall | hook` know, loaded on
 * first use so a hook process only evaluates the one it needs.
 */
type HarnessModule = Record<string, () => HarnessAdapter>;

const LOADERS: Record<string, () => Promise<HarnessAdapter>> = {
  'claude-code': async () => (await import('@cairn/harness-claude-code')).createClaudeCodeHarness(),
  codex: async () =>
    ((await import('@cairn/harness-codex')) as unknown as HarnessModule).createCodexHarness!(),
  opencode: async () =>
    ((await import('@cairn/harness-opencode')) as unknown as HarnessModule)
      .createOpencodeHarness!(),
  openclaw: async () =>
    ((await import('@cairn/harness-openclaw')) as unknown as HarnessModule)
      .createOpenclawHarness!(),
};

export const HARNESS_IDS = Object.keys(LOADERS);

/** The delivery of a harness, through its whole adapter (what `cairn hook` runs in main.cjs). */
export async function loadHarnessDelivery(id: string): Promise<HarnessAdapter['deliver']> {
  return (await loadHarness(id)).deliver;
}

export async function loadHarness(id: string): Promise<HarnessAdapter> {
  const load = LOADERS[id];
  if (!load) {
    throw new CairnError('INVALID_INPUT', `Unknown harness "${id}"`, {
      hint: `use one of ${HARNESS_IDS.join(', ')}`,
    });
  }
  return load();
}
