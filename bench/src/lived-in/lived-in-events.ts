import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cairn } from '@cairn/engine';
import { type Distribution, distribution } from '../stats';
import {
  type BenchClock,
  createClock,
  driveSession,
  type EventType,
  type FailureTally,
} from './drive-session';
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

export interface Snapshot {
  /** The cached project folder (copied, never written). */
  rootDir: string;
  sessionsBefore: number;
  /** The clock when its last session ended. */
  endAt: number;
}

/** Far past the year: the replayed sessions are the same for every snapshot. */
const REPLAY_OFFSET = 1_000_000;
const REPLAY_GAP_MS = 2 * 3600 * 1000;

interface Replay {
  snapshot: Snapshot;
  cairn: Cairn;
  clock: BenchClock;
  samples: Map<EventType, number[]>;
  failures: FailureTally;
}

async function playOn(replay: Replay, world: LivedInWorld, k: number): Promise<void> {
  const origin = replay.snapshot.endAt + (k + 1) * REPLAY_GAP_MS;
  const session = planSession(world, REPLAY_OFFSET + k, origin);
  // The first session opens the stores and warms caches: not counted.
  const onEvent =
    k === 0
      ? undefined
      : (type: EventType, ms: number) => {
          const list = replay.samples.get(type) ?? [];
          list.push(ms);
          replay.samples.set(type, list);
        };
  await driveSession(replay.cairn, session, replay.clock, replay.failures, onEvent);
}

function figures(replay: Replay, sessions: number): EventCostFigures {
  return {
    sessionsBefore: replay.snapshot.sessionsBefore,
    sessions,
    byType: [...replay.samples.entries()].map(([type, ms]) => ({ type, ms: distribution(ms) })),
    overall: distribution([...replay.samples.values()].flat()),
    failures: replay.failures,
  };
}

/**
 * Plays `sessions` + 1 new sessions of the generator's kind (the same ones)
 * on a copy of each snapshot, in one process, the clock of each continuing
 * after its last session. The two projects take turns session by session
 * (alternating which goes first), so both see the same machine load.
 */
export async function replayEvents(
  snapshots: Snapshot[],
  world: LivedInWorld,
  sessions: number,
): Promise<EventCostFigures[]> {
  const home = await mkdtemp(join(tmpdir(), 'cairn-bench-lived-in-home-'));
  const copies = await Promise.all(snapshots.map((snapshot) => scratchCopy(snapshot.rootDir)));
  const replays: Replay[] = await Promise.all(
    snapshots.map(async (snapshot, i) => {
      const clock = createClock(snapshot.endAt);
      return {
        snapshot,
        clock,
        cairn: await openBenchCairn(copies[i]!.rootDir, home, clock),
        samples: new Map(),
        failures: { count: 0, first: undefined },
      };
    }),
  );
  try {
    for (let k = 0; k <= sessions; k += 1) {
      const order = k % 2 === 0 ? replays : [...replays].reverse();
      for (const replay of order) await playOn(replay, world, k);
    }
  } finally {
    for (const replay of replays) replay.cairn.closeWorking();
    closeBenchCairn(replays[0]!.cairn);
    await Promise.all(copies.map((copy) => copy.dispose()));
    await rm(home, { recursive: true, force: true });
  }
  return replays.map((replay) => figures(replay, sessions));
}
