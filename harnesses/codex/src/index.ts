import pkg from '../package.json' with { type: 'json' };

export { codexFidelity } from './codex-fidelity';
export { createCodexHarness } from './codex-harness';
export { type CodexFiles, codexFiles } from './codex-paths';
export { deliverCodex } from './deliver';
export { CODEX_HOOK_EVENTS, type CodexHookEvent, codexPayloadSchemas } from './hook-payloads';
export { hookTrustHash, hookTrustKey } from './hook-trust';
export { readRolloutSummary } from './rollout-summary';

export const VERSION: string = pkg.version;
