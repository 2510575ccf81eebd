import pkg from '../package.json' with { type: 'json' };

export { agentDatabasePath, readCompactionSummary } from './compaction-summary';
export type { OpenclawPromptBuildOutput } from './deliver';
export {
  isOpenclawHook,
  OPENCLAW_HOOKS,
  type OpenclawHook,
  openclawPayloadSchemas,
} from './hook-payloads';
export { openclawConfigPath, PLUGIN_ID, pluginDir } from './openclaw-config';
export { openclawFidelity } from './openclaw-fidelity';
export { createOpenclawHarness } from './openclaw-harness';

export const VERSION: string = pkg.version;
