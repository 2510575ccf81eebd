import pkg from '../package.json' with { type: 'json' };

export { createOpencodeHarness, type OpencodeHarnessOptions } from './create-opencode-harness';
export {
  agentIdFrom,
  compactionSummary,
  deliverOpencode,
  OPENCODE_HOOK_EVENTS,
  type OpencodeHookEvent,
  type OpencodeOutput,
} from './deliver';
export { configPath, defaultPluginSpec, MCP_SERVER_NAME } from './install';
export { opencodeFidelity } from './opencode-fidelity';

export const VERSION: string = pkg.version;
