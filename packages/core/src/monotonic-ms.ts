/**
 * Milliseconds on a monotonic clock, for measuring how long something
 * took. Not `performance.now()`: the global `performance` loads perf_hooks
 * on first touch (ten internal modules, about 1.3 ms of a process that
 * answers one hook event or one search).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
