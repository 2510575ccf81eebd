import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Distribution, distribution } from '../stats';
import { createClock, driveSession, type EventType, type FailureTally } from './drive-session';
import { closeBenchCairn, openBenchCairn } from './lived-in-build';
import { type LivedInWorld, planSession } from './lived-in-generator';
import { scratchCopy } from './project-copy';

export interface EventCostFigures {
  /** Sessions in the project before the replay. */
  sessionsBefore: number;
  /** Replayed sessions that were timed (a warm-up session comes first). */
  sessions: number;
  byType: { type: EventType; ms: Distribution }[];
  overall: Distribution;
  failures: FailureTally;
}

/** Far past the year: the replayed sessions are the same for every snapshot. */
const REPLAY_OFFSET = 1_000_000;
const REPLAY_GAP_MS = 2 * 3600 * 1000;

/**
 * Replays `sessions` + 1 new sessions of the generator's kind in process on
 * a copy of a cached snapshot, the clock continuing after its last session,
 * and times every call by event type. The first session opens the stores
 * and warms caches: it is not counted.
 */
export async function replayEvents(
  cachedRoot: string,
  world: LivedInWorld,
  snapshot: { sessionsBefore: number; endAt: number },
  sessions: number,
): Promise<EventCostFigures> {
  const copy = await scratchCopy(cachedRoot);
  const home = await mkdtemp(join(tmpdir(), 'cairn-bench-lived-in-home-'));
  const clock = createClock(snapshot.endAt);
  const cairn = openBenchCairn(copy.rootDir, home, clock);
  const samples = new Map<EventType, number[]>();
  const failures: FailureTally = { count: 0, first: undefined };
  try {
    for (let k = 0; k <= sessions; k += 1) {
      const origin = snapshot.endAt + (k + 1) * REPLAY_GAP_MS;
      const session = planSession(world, REPLAY_OFFSET + k, origin);
      const onEvent =
        k === 0
          ? undefined
          : (type: EventType, ms: number) => {
              const list = samples.get(type) ?? [];
              list.push(ms);
              samples.set(type, list);
            };
      await driveSession(cairn, session, clock, failures, onEvent);
    }
  } finally {
    closeBenchCairn(cairn);
    await rm(home, { recursive: true, force: true });
    await copy.dispose();
  }
  return {
    sessionsBefore: snapshot.sessionsBefore,
    sessions,
    byType: [...samples.entries()].map(([type, ms]) => ({ type, ms: distribution(ms) })),
    overall: distribution([...samples.values()].flat()),
    failures,
  };
}
