import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessAdapter } from '@cairn/core';
import { openCairn } from '@cairn/engine';
import { type Distribution, distribution } from '../stats';

interface Fixture {
  event: string;
  hookEvent: string;
  payload: unknown;
}

export interface InProcessFigures {
  harness: string;
  rounds: number;
  /** Per lifecycle event: the time `adapter.deliver` adds inside the harness process. */
  events: { event: string; hookEvent: string; ms: Distribution }[];
}

export function sessionFixtures(harnessDir: string): Fixture[] {
  const dir = join(harnessDir, 'fixtures', 'session');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture);
}

/** Every session id in the payload becomes `bench-<round>`, so each round is a new session. */
function freshSession(payload: unknown, round: number): unknown {
  const text = JSON.stringify(payload).replace(
    /"(session_?id|sessionID|sessionKey)":"[^"]*"/gi,
    (_match, key: string) => `"${key}":"bench-${round}"`,
  );
  return JSON.parse(text);
}

/**
 * OpenCode and OpenClaw run Cairn inside their own process: what a user
 * pays per event is the adapter's `deliver` (the mapping plus the engine
 * call), timed here over the recorded session, replayed `rounds` times.
 */
export async function benchInProcess(options: {
  harness: string;
  adapter: HarnessAdapter;
  harnessDir: string;
  rootDir: string;
  rounds: number;
}): Promise<InProcessFigures> {
  const fixtures = sessionFixtures(options.harnessDir);
  const cairn = await openCairn(options.rootDir, { env: {} });
  const samples = new Map<string, { event: string; hookEvent: string; ms: number[] }>();
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      for (const fixture of fixtures) {
        const payload = freshSession(fixture.payload, round);
        const started = performance.now();
        await options.adapter
          .deliver(
            { hookEvent: fixture.hookEvent, payload },
            { lifecycle: cairn.lifecycle, env: {} },
          )
          .catch(() => undefined);
        const ms = performance.now() - started;
        // The first round opens databases and warms caches: not counted.
        if (round === 0) continue;
        const key = `${fixture.event}:${fixture.hookEvent}`;
        const entry = samples.get(key) ?? {
          event: fixture.event,
          hookEvent: fixture.hookEvent,
          ms: [],
        };
        entry.ms.push(ms);
        samples.set(key, entry);
      }
    }
  } finally {
    cairn.closeWorking();
  }
  return {
    harness: options.harness,
    rounds: options.rounds - 1,
    events: [...samples.values()].map((s) => ({
      event: s.event,
      hookEvent: s.hookEvent,
      ms: distribution(s.ms),
    })),
  };
}
