/** Working memory: the lifecycle of hook events, sessions and heads, transcript capture, pack injection. */
export { memoryHeadText, threadHeadText } from './head-items';
export type { PendingWrite } from './head-leases';
export { HEADS_MIGRATIONS, HeadStore } from './head-store';
export { GLOBAL_HEAD } from './head-writer';
export { lastPackReceipts } from './last-pack-receipts';
export {
  createLifecycle,
  type Lifecycle,
  type LifecycleMemory,
  type ProfilePackPreview,
} from './lifecycle';
export {
  clearLifecycleFailures,
  type LifecycleFailure,
  lifecycleFailureFix,
  lifecycleLogPath,
  logLifecycleFailure,
  recentLifecycleFailures,
} from './lifecycle-log';
export type { InjectionReceipt } from './pack-receipts';
export { createTeamApi } from './team-api';
export { emptyThreadState, renderThreadHead, type ThreadHeadState } from './thread-state';
