/** Working memory: the lifecycle of hook events, sessions and heads, transcript capture, pack injection. */
export { memoryHeadText, threadHeadText } from './head-items';
export type { InjectionReceipt } from './head-sessions';
export { HEADS_MIGRATIONS, HeadStore, type PendingWrite } from './head-store';
export { GLOBAL_HEAD, LOCAL_HEAD } from './head-writer';
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
export { emptyThreadState, renderThreadHead, type ThreadHeadState } from './thread-state';
