import type { HarnessAdapter } from '@cairn/core';
import { deliverOpencode } from './deliver';
import { opencodeFidelity } from './opencode-fidelity';
import {
  defaultPluginSpec,
  installOpencode,
  opencodeStatus,
  uninstallOpencode,
} from './opencode-install';

export interface OpencodeHarnessOptions {
  /** The plugin spec written to opencode.json; default: this package's dist/plugin.js as a file URL. */
  pluginSpec?: string;
}

export function createOpencodeHarness(options: OpencodeHarnessOptions = {}): HarnessAdapter {
  const plugin = () => options.pluginSpec ?? defaultPluginSpec();
  return {
    declaration: opencodeFidelity,
    deliver: deliverOpencode,
    install: (install) => installOpencode(install, plugin()),
    uninstall: (install) => uninstallOpencode(install, plugin()),
    status: (target) => opencodeStatus(target, plugin()),
  };
}
