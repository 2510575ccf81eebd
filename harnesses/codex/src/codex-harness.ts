import type { HarnessAdapter } from '@cairn/core';
import { codexFidelity } from './codex-fidelity';
import { codexStatus, installCodex, uninstallCodex } from './codex-install';
import { deliverCodex } from './deliver';

/** The Codex adapter: `cairn hook codex <Event>`, `cairn install codex`, status for `cairn doctor`. */
export function createCodexHarness(): HarnessAdapter {
  return {
    declaration: codexFidelity,
    deliver: deliverCodex,
    install: installCodex,
    uninstall: uninstallCodex,
    status: codexStatus,
  };
}
