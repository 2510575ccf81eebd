// Shared with the dashboard server (`@cairn/server`): it lives in core.
export { isLoopbackHost, isLoopbackHostHeader } from '@cairn/core';
