import pkg from '../package.json' with { type: 'json' };

export { agentDatabasePath, readCompactionSummary } from './compaction-summary';
export { openclawConfigPath, PLUGIN_ID, pluginDir } from './openclaw-config';
export type { OpenclawPromptBuildOutput } from './openclaw-deliver';
export { openclawFidelity } from './openclaw-fidelity';
export { createOpenclawHarness } from './openclaw-harness';
export {
  isOpenclawHook,
  OPENCLAW_HOOKS,
  type OpenclawHook,
  openclawPayloadSchemas,
} from './openclaw-payloads';

export const VERSION: string = pkg.version;
