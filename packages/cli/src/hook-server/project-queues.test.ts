import { describe, expect, it } from 'vitest';
import { createProjectQueues, runInOrder } from './project-queues';

/** A task that runs until `finish()` is called, noting when it starts. */
function gate(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: async () => {
      log.push(`${name}+`);
      await done;
      log.push(`${name}-`);
      return name;
    },
    finish: () => finish(),
  };
}

describe('runInOrder', () => {
  it('runs one project’s events in order, and another project’s meanwhile', async () => {
    const queues = createProjectQueues();
    const log: string[] = [];
    const a1 = gate(log, 'a1');
    const a2 = gate(log, 'a2');
    const b1 = gate(log, 'b1');
    const first = runInOrder(queues, 'A', a1.task, 60_000);
    const second = runInOrder(queues, 'A', a2.task, 60_000);
    const other = runInOrder(queues, 'B', b1.task, 60_000);
    b1.finish();
    expect(await other).toEqual({ done: true, value: 'b1' });
    expect(log).toEqual(['a1+', 'b1+', 'b1-']);
    expect(Object.fromEntries(queues.pending)).toEqual({ A: 2 });
    a1.finish();
    expect(await first).toEqual({ done: true, value: 'a1' });
    a2.finish();
    expect(await second).toEqual({ done: true, value: 'a2' });
    expect(log).toEqual(['a1+', 'b1+', 'b1-', 'a1-', 'a2+', 'a2-']);
    expect(queues.pending.size).toBe(0);
  });

  it('answers `done: false` past the deadline, lets the project move on, and still finishes the late event', async () => {
    const queues = createProjectQueues();
    const log: string[] = [];
    const stuck = gate(log, 'stuck');
    const next = gate(log, 'next');
    const late = runInOrder(queues, 'A', stuck.task, 50);
    const after = runInOrder(queues, 'A', next.task, 60_000);
    expect(await late).toEqual({ done: false });
    next.finish();
    expect(await after).toEqual({ done: true, value: 'next' });
    expect(queues.running.size).toBe(1);
    stuck.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['stuck+', 'next+', 'next-', 'stuck-']);
    expect(queues.running.size).toBe(0);
  });

  it('answers `done: false` for an event that failed, and runs the next', async () => {
    const queues = createProjectQueues();
    const failed = runInOrder(queues, 'A', () => Promise.reject(new Error('boom')), 60_000);
    const next = runInOrder(queues, 'A', async () => 'ok', 60_000);
    expect(await failed).toMatchObject({ done: false, failed: new Error('boom') });
    expect(await next).toEqual({ done: true, value: 'ok' });
  });
});
