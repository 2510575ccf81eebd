import pkg from '../package.json' with { type: 'json' };

export {
  agentIdFrom,
  compactionSummary,
  deliverOpencode,
  OPENCODE_HOOK_EVENTS,
  type OpencodeHookEvent,
  type OpencodeOutput,
} from './deliver';
export { opencodeFidelity } from './opencode-fidelity';
export { createOpencodeHarness, type OpencodeHarnessOptions } from './opencode-harness';
export { configPath, defaultPluginSpec, MCP_SERVER_NAME } from './opencode-install';

export const VERSION: string = pkg.version;
