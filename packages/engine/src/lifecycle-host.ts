import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CairnError, formatError, resolveSettings } from '@cairn/core';
import type { Cairn } from './cairn-api';
import { openCairn } from './open-cairn';
import type { OpenCairnOptions } from './open-options';
import {
  cachedProject,
  cachedRoots,
  closeProjects,
  createProjectCache,
  keepProject,
  locateProject,
  noteProjectFiles,
  type ProjectCache,
  projectKey,
} from './project-lookup';
import { logLifecycleFailure } from './working';

/**
 * How long a host keeps the projects it opens:
 * - `open`: between events, fingerprinted, the least recently used closed
 *   past `maxProjects` (the hook server, the in-process plugins);
 * - `event`: each event's working stores closed after it, so every SQLite
 *   WAL is folded in (the whole CLI, and a session end);
 * - `exit`: left for the process's exit (a process per event: closing
 *   would checkpoint each WAL, fsyncs and all, every event; what an event
 *   committed is in the WAL).
 */
export type ProjectLifetime = 'open' | 'event' | 'exit';

export interface LifecycleHostOptions {
  /** The environment projects open with, unless an event brings its own. */
  env?: NodeJS.ProcessEnv;
  /** Where a failure the host swallowed is told (OpenCode's log, OpenClaw's logger). */
  log?: (message: string) => void;
  keep?: ProjectLifetime;
  /** With `keep: 'open'`, how many projects at once (default 8). */
  maxProjects?: number;
  /** What every project opens with besides its env (a pinned clock, detached maintenance). */
  openOptions?: Omit<OpenCairnOptions, 'env' | 'resolvedSettings'>;
}

/** What one event answered, or why it failed (fail-open: the agent goes on either way). */
export type HostOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Names an event for the lifecycle log: `<harness> <event>`, and its session when known. */
export interface HostEvent {
  name: string;
  sessionKey?: string;
}

/**
 * One place that runs harness events against projects: finds the project
 * of an event, opens it (once, for a long-lived host), runs the event
 * fail-open, and closes what it opened. The hook command and hook server
 * of the CLI and the in-process plugins of OpenCode and OpenClaw all run
 * through one.
 */
export interface LifecycleHost {
  /**
   * The project an event is for: `rootFlag` (resolved against `cwd`) when
   * given, which must be an existing folder; else the nearest folder with
   * `.cairn/` at or above `start`. Undefined when there is none: a host
   * never creates a project.
   */
  projectRoot(start: string, rootFlag?: string, cwd?: string): string | undefined;
  /** The project at `root`, opened now or kept from an earlier event with the same settings. */
  open(root: string, env?: NodeJS.ProcessEnv): Promise<Cairn>;
  /**
   * Runs one event on an opened project, fail-open: a failure is written to
   * the project's lifecycle log (`cairn doctor` shows it) and to `log`, and
   * comes back as `{ ok: false }`. Afterwards the project is kept or closed
   * as the host's lifetime says.
   */
  deliver<T>(
    cairn: Cairn,
    event: HostEvent,
    run: (cairn: Cairn) => Promise<T>,
  ): Promise<HostOutcome<T>>;
  /**
   * An event or command is done with `cairn`: a kept project notes its
   * files (to compare before the next event), an `event` host closes its
   * working stores, an `exit` host leaves them to the process's exit.
   */
  release(cairn: Cairn): void;
  /**
   * `projectRoot`, `open` and `deliver` in one, for a plugin: undefined when
   * there is no project or anything failed (told to `log`).
   */
  handle<T>(
    start: string,
    event: HostEvent,
    run: (cairn: Cairn) => Promise<T>,
  ): Promise<T | undefined>;
  /** The folders of the projects open now. */
  roots(): string[];
  /** Closes every project it opened (stores, watches, backends), and waits for them. */
  close(): Promise<void>;
}

interface HostState {
  options: LifecycleHostOptions;
  keep: ProjectLifetime;
  cache: ProjectCache;
  /** Projects opened for one event (`event`, `exit`), closed by `close()`. */
  opened: Set<Cairn>;
}

/** See `LifecycleHost.projectRoot`. */
export function eventProjectRoot(
  start: string,
  rootFlag?: string,
  cwd = start,
): string | undefined {
  if (rootFlag !== undefined) {
    // A root that is gone (a deleted checkout) is no project: never create it.
    const root = resolve(cwd, rootFlag);
    return statSync(root, { throwIfNoEntry: false })?.isDirectory() ? root : undefined;
  }
  const location = locateProject(start);
  return location.initialized ? location.root : undefined;
}

async function openProject(state: HostState, root: string, env?: NodeJS.ProcessEnv) {
  const openOptions = state.options.openOptions ?? {};
  const eventEnv = env ?? state.options.env ?? process.env;
  if (state.keep !== 'open') {
    const cairn = await openCairn(root, { ...openOptions, env: eventEnv });
    state.opened.add(cairn);
    return cairn;
  }
  const { homeDir, overrides } = openOptions;
  const resolved = resolveSettings({
    projectRoot: root,
    env: eventEnv,
    ...(homeDir === undefined ? {} : { homeDir }),
    ...(overrides === undefined ? {} : { overrides }),
  });
  const kept = cachedProject(state.cache, projectKey(root, resolved, eventEnv, homeDir));
  if (kept) return kept;
  const cairn = await openCairn(root, {
    ...openOptions,
    env: eventEnv,
    resolvedSettings: resolved,
  });
  // Kept under the settings it resolved once its packages loaded: what the next event resolves.
  keepProject(state.cache, projectKey(root, cairn.resolved, eventEnv, homeDir), root, cairn);
  return cairn;
}

/** A refused or failed event, in the project's lifecycle log (best effort) and the host's log. */
function logFailure(state: HostState, root: string, event: HostEvent, error: unknown): void {
  const message = formatError(error).slice(0, 2000);
  logLifecycleFailure(root, {
    at: new Date().toISOString(),
    event: event.name,
    ...(event.sessionKey ? { sessionKey: event.sessionKey.slice(0, 256) } : {}),
    code: CairnError.isInstance(error) ? error.code : 'INTERNAL',
    message,
  });
  state.options.log?.(`cairn ${event.name} failed open: ${message}`);
}

async function deliverEvent<T>(
  state: HostState,
  cairn: Cairn,
  event: HostEvent,
  run: (cairn: Cairn) => Promise<T>,
): Promise<HostOutcome<T>> {
  try {
    return { ok: true, value: await run(cairn) };
  } catch (error) {
    logFailure(state, cairn.rootDir, event, error);
    return { ok: false, error };
  } finally {
    releaseProject(state, cairn);
  }
}

function releaseProject(state: HostState, cairn: Cairn): void {
  if (state.keep === 'open') noteProjectFiles(state.cache, cairn);
  else if (state.keep === 'event') cairn.closeWorking();
}

async function handleEvent<T>(
  state: HostState,
  start: string,
  event: HostEvent,
  run: (cairn: Cairn) => Promise<T>,
): Promise<T | undefined> {
  try {
    const root = eventProjectRoot(start);
    if (!root) return undefined;
    const outcome = await deliverEvent(state, await openProject(state, root), event, run);
    return outcome.ok ? outcome.value : undefined;
  } catch (error) {
    // The project would not open (a bad config, a link under .cairn/): said, never thrown.
    state.options.log?.(`cairn ${event.name} failed open: ${formatError(error)}`);
    return undefined;
  }
}

async function closeHost(state: HostState): Promise<void> {
  const opened = [...state.opened];
  state.opened.clear();
  await Promise.all([
    closeProjects(state.cache),
    ...opened.map((cairn) => cairn.close().catch(() => undefined)),
  ]);
}

/** A lifecycle host (see `LifecycleHost`); `keep` defaults to `open`. */
export function openLifecycleHost(options: LifecycleHostOptions = {}): LifecycleHost {
  const state: HostState = {
    options,
    keep: options.keep ?? 'open',
    cache: createProjectCache(options.maxProjects),
    opened: new Set(),
  };
  return {
    projectRoot: eventProjectRoot,
    open: (root, env) => openProject(state, root, env),
    deliver: (cairn, event, run) => deliverEvent(state, cairn, event, run),
    release: (cairn) => releaseProject(state, cairn),
    handle: (start, event, run) => handleEvent(state, start, event, run),
    roots: () => (state.keep === 'open' ? cachedRoots(state.cache) : []),
    close: () => closeHost(state),
  };
}
