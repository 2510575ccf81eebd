// The guard is shared with the dashboard server (`@cairn/server`): it lives in core.
export {
  createLocalHttpGuard,
  type LocalHttpGuardOptions,
  type LocalHttpVerdict,
  tokensEqual,
} from '@cairn/core';
