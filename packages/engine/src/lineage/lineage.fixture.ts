import { CairnError } from '@cairn/core';
import { makeTempProject } from '@cairn/testkit';
import { expect } from 'vitest';
import type { LineageStore, LineageStoreOptions } from './lineage-store';
import { openLineageStore } from './lineage-store';
import type { AddNodeInput, TemporalNode } from './lineage-types';

/** Test support: a temp project whose stores are all closed on cleanup. */
export interface LineageFixture {
  root: string;
  open(options?: LineageStoreOptions): LineageStore;
  cleanup(): Promise<void>;
}

export async function makeLineageFixture(): Promise<LineageFixture> {
  const project = await makeTempProject('cairn-lineage-');
  const stores: LineageStore[] = [];
  return {
    root: project.root,
    open(options = {}) {
      const store = openLineageStore(project.root, { now: ticking(), ...options });
      stores.push(store);
      return store;
    },
    async cleanup() {
      for (const store of stores) store.close();
      await project.cleanup();
    },
  };
}

/** A clock that starts at `start` and moves one minute per reading. */
export function ticking(start = '2026-05-01T09:00:00.000Z'): () => Date {
  let at = Date.parse(start);
  return () => {
    const now = new Date(at);
    at += 60_000;
    return now;
  };
}

/** The ISO instant `minutes` after 2026-05-01T09:00Z. */
export function minute(minutes: number): string {
  return new Date(Date.parse('2026-05-01T09:00:00.000Z') + minutes * 60_000).toISOString();
}

/** Adds a leaf node spanning minutes [at, at + 10]. */
export function addLeaf(
  store: LineageStore,
  fields: Partial<AddNodeInput> & { agentId: string; at: number },
): TemporalNode {
  const { at, ...rest } = fields;
  return store.addNode({
    kind: 'session_summary',
    threadKey: 'main',
    sessionKey: `session-${at}`,
    source: 'harness',
    text: `Summary at minute ${at}\nDetails of minute ${at}.`,
    startAt: minute(at),
    endAt: minute(at + 10),
    ...rest,
  });
}

/** Every node reachable from `roots` through child edges. */
export function reachable(
  store: LineageStore,
  agentId: string,
  roots: TemporalNode[],
): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    stack.push(...store.children(agentId, node.id));
  }
  return seen;
}

/** Runs `task` and checks it threw a CairnError with `code`. */
export function expectThrowsCode(task: () => unknown, code: string): CairnError {
  let thrown: unknown;
  try {
    task();
  } catch (error) {
    thrown = error;
  }
  expect(CairnError.isInstance(thrown), `expected CairnError ${code}, got ${String(thrown)}`).toBe(
    true,
  );
  expect((thrown as CairnError).code).toBe(code);
  return thrown as CairnError;
}
