/**
 * The hook server's events, one ordered queue per project (hook-server.ts):
 * the events of one project run one after another, in the order they
 * arrived, and those of different projects at the same time, so a project
 * that waits (on a lock, a slow disk, a model) never holds up another.
 */
export interface ProjectQueues {
  /** Per project, what its next event waits for. */
  tails: Map<string, Promise<void>>;
  /** Per project, its events received and not finished. */
  pending: Map<string, number>;
  /** Every event started and not finished (stop waits for them). */
  running: Set<Promise<unknown>>;
}

export function createProjectQueues(): ProjectQueues {
  return { tails: new Map(), pending: new Map(), running: new Set() };
}

export type Queued<T> =
  | { done: true; value: T }
  /** Not finished by the deadline (`failed` absent), or failed (`failed`: the error). */
  | { done: false; failed?: unknown };

function count(queues: ProjectQueues, key: string, by: number): void {
  const next = (queues.pending.get(key) ?? 0) + by;
  if (next > 0) queues.pending.set(key, next);
  else queues.pending.delete(key);
}

/**
 * Runs `task` once the earlier events of project `key` are done, and
 * resolves to its result, or to `{ done: false }` when it failed or has not finished
 * `deadlineMs` after it arrived (it goes on running: an event handed over
 * is never dropped). The project's next event waits for this one at most
 * `deadlineMs` after it started, so one stuck event delays its project's
 * later events by that much, never forever.
 */
export function runInOrder<T>(
  queues: ProjectQueues,
  key: string,
  task: () => Promise<T>,
  deadlineMs: number,
): Promise<Queued<T>> {
  const previous = queues.tails.get(key) ?? Promise.resolve();
  count(queues, key, 1);
  const result = previous.then(() => {
    const started = Promise.resolve().then(task);
    queues.running.add(started);
    const settle = () => {
      queues.running.delete(started);
      count(queues, key, -1);
    };
    started.then(settle, settle);
    return started;
  });
  const released = new Promise<void>((resolve) => {
    void result.then(
      () => resolve(),
      () => resolve(),
    );
    void previous.then(() => {
      const timer = setTimeout(resolve, deadlineMs);
      void result.finally(() => clearTimeout(timer)).catch(() => undefined);
    });
  });
  queues.tails.set(key, released);
  void released.then(() => {
    if (queues.tails.get(key) === released) queues.tails.delete(key);
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ done: false }), deadlineMs);
    result.then(
      (value) => {
        clearTimeout(timer);
        resolve({ done: true, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ done: false, failed: error ?? 'failed' });
      },
    );
  });
}
