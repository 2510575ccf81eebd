import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  CairnError,
  HARNESS_EVENTS,
  type HarnessAdapter,
  type HarnessEvent,
  type LifecycleApi,
} from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlierSession } from './earlier-session';
import { makeTempProject, snapshotTree, type TempProject } from './tree-snapshot';

/** One recorded harness payload, as kept in `<package>/fixtures/session/*.json`. */
export interface HarnessFixture {
  event: HarnessEvent;
  hookEvent: string;
  payload: unknown;
  capturedWith: string;
  /** Text the compaction node must contain (the harness's own summary). */
  expectSummary?: string;
  file: string;
}

type LifecycleCall = (input: never) => Promise<LifecycleResultLike>;
interface LifecycleResultLike {
  inject: string;
  nodeId?: string;
  failed?: { code: string; message: string };
}
interface NodeView {
  node: { kind: string; text: string };
  transcript?: { entries: { role: string; text: string }[] } | null;
}
/** The parts of engine's `Cairn` the suite uses (testkit does not depend on the engine). */
interface CairnLike {
  init(): Promise<unknown>;
  add(input: { text: string }): Promise<unknown>;
  lifecycle: LifecycleApi;
  expand(nodeId: string, agentId: string): NodeView;
  closeWorking(): void;
}
/** The parts of core's `HarnessAdapter` the suite uses. */
type HarnessLike = Pick<HarnessAdapter, 'declaration' | 'deliver'>;

export interface DescribeHarnessOptions {
  name: string;
  adapter: HarnessLike;
  /** Folder of `*.json` fixtures, replayed in file-name order as one session. */
  fixturesDir: string;
  /** The engine's `openCairn`, passed in by the harness package's test. */
  openCairn: (root: string, options: { env: Record<string, string> }) => Promise<CairnLike>;
}

const SEED = 'Cairn harness check: the staging cluster is called kestrel-stage.';

/** Fixture strings may point at files kept beside them as `<fixtures>/...` (e.g. a transcript). */
const FIXTURES_PREFIX = '<fixtures>/';

function resolveFixturePaths(value: unknown, root: string): unknown {
  if (typeof value === 'string') {
    return value.startsWith(FIXTURES_PREFIX)
      ? join(root, value.slice(FIXTURES_PREFIX.length))
      : value;
  }
  if (Array.isArray(value)) return value.map((item) => resolveFixturePaths(item, root));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, resolveFixturePaths(inner, root)]),
  );
}

/**
 * Reads `dir/*.json` in file-name order; `<fixtures>/x` in a payload becomes
 * a path under the folder holding `dir` (the package's `fixtures/`).
 */
export async function loadHarnessFixtures(dir: string): Promise<HarnessFixture[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = JSON.parse(await readFile(join(dir, file), 'utf8')) as Omit<
        HarnessFixture,
        'file'
      >;
      return { ...raw, payload: resolveFixturePaths(raw.payload, dirname(dir)), file };
    }),
  );
}

interface Recorded {
  name: string;
  input: Record<string, unknown>;
  result: LifecycleResultLike;
}

/** Wraps the lifecycle so the suite sees every call the adapter makes and its result. */
function recording(lifecycle: LifecycleApi, log: Recorded[]): LifecycleApi {
  return Object.fromEntries(
    Object.entries(lifecycle as unknown as Record<string, LifecycleCall>).map(([name, call]) => [
      name,
      (async (input: never) => {
        const result = await call(input);
        log.push({ name, input: input as Record<string, unknown>, result });
        return result;
      }) as LifecycleCall,
    ]),
  ) as unknown as LifecycleApi;
}

/** What one suite run holds: the project, the engine, the fixtures and every recorded call. */
interface HarnessRun {
  options: DescribeHarnessOptions;
  /** Events the declaration marks full or degraded. */
  declared: HarnessEvent[];
  project: TempProject;
  cairn: CairnLike;
  fixtures: HarnessFixture[];
  log: Recorded[];
  byFixture: Map<string, Recorded[]>;
}

/** Opens a seeded project and replays the fixtures through `adapter.deliver`, recording every call. */
async function replaySession(run: HarnessRun): Promise<void> {
  const { adapter, fixturesDir } = run.options;
  run.fixtures = await loadHarnessFixtures(fixturesDir);
  run.project = await makeTempProject('cairn-harness-');
  run.cairn = await run.options.openCairn(run.project.root, { env: {} });
  await run.cairn.init();
  await run.cairn.add({ text: SEED });
  // Session start shows what the thread's state asks for and the heads, not the newest
  // units: an earlier session that asked about the cluster left heads that name it.
  await earlierSession(run.cairn.lifecycle, {
    cwd: run.project.root,
    prompt: 'Deploy the release to kestrel-stage.',
    finalAnswer: 'The release is built; it goes to kestrel-stage tomorrow.',
  });
  const lifecycle = recording(run.cairn.lifecycle, run.log);
  for (const fixture of run.fixtures) {
    const before = run.log.length;
    await adapter.deliver(
      { hookEvent: fixture.hookEvent, payload: fixture.payload },
      { lifecycle, env: {} },
    );
    run.byFixture.set(fixture.file, run.log.slice(before));
  }
}

/** Every declared event has a payload, and every payload reaches its lifecycle event. */
function describeMapping(run: HarnessRun): void {
  it('has a recorded payload for every event the declaration marks full or degraded', () => {
    const events = new Set(run.fixtures.map((f) => f.event));
    expect(run.declared.filter((e) => !events.has(e))).toEqual([]);
    for (const fixture of run.fixtures) expect(run.declared).toContain(fixture.event);
  });

  it('maps every payload onto its lifecycle event, with nothing failing open', () => {
    for (const fixture of run.fixtures) {
      const calls = run.byFixture.get(fixture.file) ?? [];
      expect(
        calls.map((c) => c.name),
        fixture.file,
      ).toContain(fixture.event);
      for (const call of calls) expect(call.result.failed, fixture.file).toBeUndefined();
    }
  });
}

/** What the engine holds after the session: the pack at start, compaction and summary nodes. */
function describeEngineState(run: HarnessRun): void {
  it('injects memory at session start', () => {
    const starts = run.log.filter((c) => c.name === 'sessionStart');
    if (!run.declared.includes('sessionStart')) return;
    // The context pack, carrying the seeded unit the earlier session's heads name.
    const packs = starts.filter((c) => c.result.inject.includes('<!-- cairn:pack:start -->'));
    expect(packs.some((c) => c.result.inject.includes('kestrel-stage'))).toBe(true);
  });

  it('writes the compaction node with the harness summary and the session summary node', () => {
    const { cairn, declared } = run;
    const agentOf = (call: Recorded) => String(call.input.agentId);
    for (const fixture of run.fixtures.filter((f) => f.event === 'compactionComplete')) {
      const call = run.byFixture.get(fixture.file)!.find((c) => c.name === 'compactionComplete')!;
      const view = cairn.expand(call.result.nodeId!, agentOf(call));
      expect(view.node.kind).toBe('compaction');
      if (fixture.expectSummary) expect(view.node.text).toContain(fixture.expectSummary);
    }
    const end = run.log.find((c) => c.name === 'sessionEnd');
    if (!declared.includes('sessionEnd')) return;
    const view = cairn.expand(end!.result.nodeId!, agentOf(end!));
    expect(view.node.kind).toBe('session_summary');
    const roles = view.transcript?.entries.map((e) => e.role) ?? [];
    if (declared.includes('userPromptSubmit')) expect(roles).toContain('user');
    if (declared.includes('toolUse')) expect(roles).toContain('tool');
  });
}

/** A payload of the wrong shape, for every hook event the fixtures use. */
function describeDamagedPayloads(run: HarnessRun): void {
  it('refuses a damaged payload with INVALID_INPUT and writes nothing', async () => {
    const lifecycle = recording(run.cairn.lifecycle, []);
    for (const hookEvent of new Set(run.fixtures.map((f) => f.hookEvent))) {
      const before = await snapshotTree(run.project.root);
      const error = await run.options.adapter
        .deliver(
          { hookEvent, payload: { session_id: 42, sessionID: 42, cwd: [] } },
          { lifecycle, env: {} },
        )
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(CairnError.isInstance(error) && error.code, hookEvent).toBe('INVALID_INPUT');
      expect(await snapshotTree(run.project.root)).toEqual(before);
    }
  });
}

/**
 * The harness conformance suite: recorded payloads of one real session go
 * through `adapter.deliver` against a real engine, and the engine state is
 * checked for every event the declaration claims.
 */
export function describeHarness(options: DescribeHarnessOptions): void {
  const events = options.adapter.declaration.events;
  describe(`harness conformance: ${options.name}`, () => {
    // Filled in by beforeAll: the tests read it once the session has been replayed.
    const run = {
      options,
      declared: HARNESS_EVENTS.filter((e) => events[e].level !== 'none'),
      log: [],
      byFixture: new Map(),
    } as unknown as HarnessRun;
    beforeAll(() => replaySession(run));
    afterAll(async () => {
      run.cairn?.closeWorking();
      await run.project?.cleanup();
    });
    describeMapping(run);
    describeEngineState(run);
    describeDamagedPayloads(run);
  });
}
