import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeSearchIndexes } from '@cairn/backend-file';
import { type Cairn, openCairn } from '@cairn/engine';
import { type Distribution, distribution } from '../stats';
import {
  type BenchClock,
  createClock,
  driveSession,
  type EventType,
  type FailureTally,
} from './drive-session';
import type { CacheEntry } from './lived-in-cache';
import {
  capturedBytes,
  GENERATOR_VERSION,
  type LivedInWorld,
  MAIN_THREAD,
  type PlannedSession,
  PROJECT_NAME,
  planSession,
} from './lived-in-generator';
import { copyProject } from './project-copy';

/** What the project was handed, in UTF-8 bytes and counts. */
export interface Captured {
  sessions: number;
  prompts: number;
  toolEvents: number;
  units: number;
  promptBytes: number;
  toolInputBytes: number;
  toolOutputBytes: number;
  unitBytes: number;
  totalBytes: number;
}

export interface LivedInManifest {
  key: string;
  generatorVersion: number;
  seed: number;
  spec: LivedInWorld['spec'];
  builtAt: string;
  buildMs: number;
  /** Wall time of each session (all its events), in order. */
  sessionMs: number[];
  failures: FailureTally;
  capturedEarly: Captured;
  captured: Captured;
  /** The clock when the last session of each snapshot ended. */
  earlyEndAt: number;
  endAt: number;
  outputBytes: Distribution;
  /** Tool outputs longer than 4,000 characters (what the transcript kept whole before the lossless work). */
  outputsOver4000: number;
  /** Per agent: transcript-only words in its `lived-in.main` sessions, and in how many sessions each. */
  mainThreadRareWords: Record<string, Record<string, number>>;
  /** Approved unit texts spread over the year, for prompts that units answer. */
  unitSamples: string[];
}

const emptyCaptured = (): Captured => ({
  sessions: 0,
  prompts: 0,
  toolEvents: 0,
  units: 0,
  promptBytes: 0,
  toolInputBytes: 0,
  toolOutputBytes: 0,
  unitBytes: 0,
  totalBytes: 0,
});

function tally(captured: Captured, session: PlannedSession): void {
  const bytes = capturedBytes(session);
  captured.sessions += 1;
  for (const event of session.events) {
    if (event.kind === 'prompt') captured.prompts += 1;
    else if (event.kind === 'tool') captured.toolEvents += 1;
    else captured.units += 1;
  }
  captured.promptBytes += bytes.prompts;
  captured.toolInputBytes += bytes.toolInputs;
  captured.toolOutputBytes += bytes.toolOutputs;
  captured.unitBytes += bytes.units;
  captured.totalBytes += bytes.prompts + bytes.toolInputs + bytes.toolOutputs + bytes.units;
}

/** Opens the project the way an in-process harness does, on the pinned clock, without user config. */
export async function openBenchCairn(
  rootDir: string,
  homeDir: string,
  clock: BenchClock,
): Promise<Cairn> {
  return openCairn(rootDir, { env: {}, homeDir, overrides: { timezone: 'UTC' }, now: clock.now });
}

/** Closes every handle the process holds on the project, as a harness that exits does. */
export function closeBenchCairn(cairn: Cairn): void {
  cairn.closeWorking();
  closeSearchIndexes();
}

/** A git checkout on `main`, so hooks started in the project default to the `lived-in.main` thread. */
async function createProject(rootDir: string): Promise<void> {
  await mkdir(join(rootDir, '.git'), { recursive: true });
  await writeFile(join(rootDir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
}

class BuildState {
  readonly failures: FailureTally = { count: 0, first: undefined };
  readonly captured = emptyCaptured();
  readonly sessionMs: number[] = [];
  readonly outputSizes: number[] = [];
  outputsOver4000 = 0;
  readonly rare: Record<string, Record<string, number>> = {};
  readonly unitSamples: string[] = [];
  /** Milliseconds by event type since the last progress line. */
  windowMs = new Map<EventType, number>();

  readonly onEvent = (type: EventType, ms: number) => {
    this.windowMs.set(type, (this.windowMs.get(type) ?? 0) + ms);
  };

  record(session: PlannedSession, ms: number, sampleEvery: number): void {
    this.sessionMs.push(ms);
    tally(this.captured, session);
    for (const event of session.events) {
      if (event.kind !== 'tool') continue;
      this.outputSizes.push(Buffer.byteLength(event.output));
      if (event.output.length > 4000) this.outputsOver4000 += 1;
    }
    if (session.threadKey === MAIN_THREAD) {
      const counts = this.rare[session.agentId] ?? {};
      this.rare[session.agentId] = counts;
      for (const word of session.rareWords) counts[word] = (counts[word] ?? 0) + 1;
    }
    const unit = session.events.find((e) => e.kind === 'unit' && e.review === 'approved');
    if (unit?.kind === 'unit' && session.index % sampleEvery === 0)
      this.unitSamples.push(unit.text);
  }
}

function progress(
  log: (line: string) => void,
  done: number,
  total: number,
  state: BuildState,
  started: number,
) {
  const every = total >= 1000 ? 50 : 10;
  if (done % every !== 0 && done !== total) return;
  const seconds = (performance.now() - started) / 1000;
  const recent = state.sessionMs.slice(-every).reduce((sum, ms) => sum + ms, 0) / 1000;
  const rate = Math.min(every, done) / recent;
  const eta = (total - done) / rate;
  const sessions = Math.min(every, done);
  const perType = [...state.windowMs.entries()]
    .map(([type, ms]) => `${type} ${(ms / sessions).toFixed(0)}`)
    .join(', ');
  state.windowMs = new Map();
  log(
    `lived-in: ${done}/${total} sessions in ${seconds.toFixed(0)} s; last ${every}: ${rate.toFixed(2)} sessions/s` +
      (done < total ? `, about ${(eta / 60).toFixed(1)} min left at that rate` : '') +
      ` (ms a session: ${perType})`,
  );
}

/**
 * Plays the whole year into `entry` (a temporary cache folder): the early
 * snapshot is copied when session `snapshotAt` has ended and every handle
 * is closed; the final project stays in place. Writes the manifest last.
 */
export async function buildLivedIn(
  world: LivedInWorld,
  key: string,
  entry: CacheEntry,
  log: (line: string) => void,
): Promise<LivedInManifest> {
  const { spec } = world;
  const home = await mkdtemp(join(tmpdir(), 'cairn-bench-lived-in-home-'));
  const rootDir = join(entry.full, PROJECT_NAME);
  await createProject(rootDir);
  const clock = createClock(world.yearStart);
  const state = new BuildState();
  let capturedEarly = emptyCaptured();
  let earlyEndAt = 0;
  let cairn = await openBenchCairn(rootDir, home, clock);
  const started = performance.now();
  try {
    await cairn.init();
    const sampleEvery = Math.max(1, Math.floor(spec.sessions / 60));
    for (let i = 0; i < spec.sessions; i += 1) {
      const session = planSession(world, i);
      const sessionStarted = performance.now();
      await driveSession(cairn, session, clock, state.failures, state.onEvent);
      state.record(session, performance.now() - sessionStarted, sampleEvery);
      progress(log, i + 1, spec.sessions, state, started);
      if (i + 1 === spec.snapshotAt) {
        closeBenchCairn(cairn);
        await copyProject(rootDir, join(entry.early, PROJECT_NAME));
        capturedEarly = { ...state.captured };
        earlyEndAt = session.endAt;
        cairn = await openBenchCairn(rootDir, home, clock);
      }
    }
  } finally {
    closeBenchCairn(cairn);
    await rm(home, { recursive: true, force: true });
  }
  const manifest: LivedInManifest = {
    key,
    generatorVersion: GENERATOR_VERSION,
    seed: world.seed,
    spec,
    builtAt: new Date().toISOString(),
    buildMs: performance.now() - started,
    sessionMs: state.sessionMs.map((ms) => Math.round(ms * 10) / 10),
    failures: state.failures,
    capturedEarly,
    captured: state.captured,
    earlyEndAt,
    endAt: clock.at,
    outputBytes: distribution(state.outputSizes),
    outputsOver4000: state.outputsOver4000,
    mainThreadRareWords: state.rare,
    unitSamples: state.unitSamples,
  };
  await writeFile(entry.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
