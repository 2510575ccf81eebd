import type { HarnessAdapter } from '@cairn/core';
import { createOpenclawDeliver } from './deliver';
import { openclawFidelity } from './openclaw-fidelity';
import { installOpenclaw, openclawStatus, uninstallOpenclaw } from './openclaw-install';

/**
 * The OpenClaw harness: install links this package as an OpenClaw plugin;
 * `deliver` is what that plugin runs in-process for every hook. Each
 * instance remembers the sessions it saw, as one plugin instance does.
 */
export function createOpenclawHarness(): HarnessAdapter {
  return {
    declaration: openclawFidelity,
    deliver: createOpenclawDeliver(),
    install: installOpenclaw,
    uninstall: uninstallOpenclaw,
    status: openclawStatus,
  };
}
