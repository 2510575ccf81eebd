/**
 * The harness contract. Each harness adapter package declares,
 * as static data, what it wires for every Cairn lifecycle event; the
 * compatibility matrix in docs/HARNESSES.md is generated from these
 * declarations, and each claim is exercised by the package's e2e tests.
 * `HarnessAdapter` is what every harness package implements; a harness's
 * main entry needs only core and @cairn/harness-kit, never the engine.
 */
import { LIFECYCLE_EVENT_NAMES, type LifecycleApi, type LifecycleEvent } from './lifecycle';

/** The events a harness declares: the lifecycle events, under their one name. */
export const HARNESS_EVENTS: readonly LifecycleEvent[] = LIFECYCLE_EVENT_NAMES;
export type HarnessEvent = LifecycleEvent;

export type EventFidelity =
  /** The harness hook(s) in `via` deliver the event with everything Cairn needs. */
  | { level: 'full'; via: string[]; note?: string }
  /** Delivered through a substitute; `fallback` says what is lost or approximated. */
  | { level: 'degraded'; via: string[]; fallback: string }
  /** Not delivered at all. */
  | { level: 'none'; reason: string };

/** A cell of the fidelity matrix a test proves: an event, or the known fix after a failing tool. */
export type FidelityCell = HarnessEvent | 'afterToolInjection';

/** The end-to-end test that proves a cell against the pinned harness: its file and its title. */
export interface CellEvidence {
  /** The test file, relative to the harness package's `src/` (`claude-code.e2e.test.ts`). */
  file: string;
  /** The test's title, as its `it(...)` names it. */
  test: string;
}

export interface HarnessDeclaration {
  /** `claude-code`, `codex`, `opencode`, `openclaw`: the `cairn install <id>` name. */
  id: string;
  /** Display name. */
  name: string;
  /** The npm package of the harness CLI the e2e tests run. */
  harnessPackage: string;
  /** The harness version the declaration was checked against (pinned in devDependencies). */
  checkedVersion: string;
  /** How hooks run: a `cairn hook` process per event, or a plugin inside the harness process. */
  integration: 'hook-process' | 'in-process-plugin';
  events: Record<HarnessEvent, EventFidelity>;
  /** Whether prompts and tool calls reach the lineage as they happen. */
  transcriptCapture: 'live' | 'partial' | 'none';
  /** How injected text reaches the model (e.g. `additionalContext` of SessionStart). */
  injection: string;
  /** How Cairn's memory tools reach the agent (MCP server, native tools). */
  tools: string;
  /** Timeouts, trust steps and other limits a user should know. */
  limits: string[];
  /**
   * How a known fix reaches the model after a failing tool (task history,
   * docs/HISTORY.md): `full` when the reply to the tool event is injected
   * before the model's next request, `degraded` when it waits for the next prompt.
   */
  afterToolInjection: EventFidelity;
  /**
   * For each cell that is full or degraded, the e2e test that proves it
   * (docs/HARNESSES.md shows it; the repository's checks refuse a
   * supported cell without one, or a title its file does not hold).
   */
  evidence?: Partial<Record<FidelityCell, CellEvidence>>;
}

export type InstallScope = 'project' | 'user';

export interface HarnessInstallOptions {
  scope: InstallScope;
  /** The project root (where `.cairn/` lives). */
  projectRoot: string;
  /** The user's home; tests pass a temp dir. */
  homeDir: string;
  /** Print the change, write nothing. */
  dryRun: boolean;
  /** How the harness starts Cairn: `[command, ...args]` prefix, e.g. `[node, /abs/bin.cjs]`. */
  cairnCommand: string[];
  env?: Record<string, string | undefined>;
}

/** One file an install or uninstall touches. */
export interface HarnessFileChange {
  path: string;
  action: 'create' | 'update' | 'delete' | 'unchanged';
  /** Where the previous content was saved, when the file existed. */
  backup?: string;
  /** A short human-readable account of the change (a diff or a summary). */
  preview: string;
}

export interface HarnessInstallReport {
  harness: string;
  scope: InstallScope;
  dryRun: boolean;
  changes: HarnessFileChange[];
  /** Steps the user must still take (e.g. a trust prompt the CLI cannot answer). */
  notes: string[];
}

export interface HarnessStatus {
  harness: string;
  installed: boolean;
  scope?: InstallScope;
  /** Files found, with what each holds of Cairn's. */
  details: string[];
  /** What keeps the harness from working: `cairn doctor` is not ok while any is listed. */
  problems: string[];
  /** Worth knowing but harmless (doctor marks them `~` and stays ok). */
  notes?: string[];
}

/** A harness payload as the harness sends it: its own event name and its JSON. */
export interface HarnessDelivery {
  /** The harness's event or hook name (`SessionStart`, `session.created`, `before_prompt_build`). */
  hookEvent: string;
  /** The payload exactly as recorded from the real CLI. */
  payload: unknown;
}

/** What an adapter did with one delivery. */
export interface HarnessDeliveryResult {
  /** What the harness gets back (printed to stdout for hook processes; returned for plugins). */
  output?: unknown;
  /** The agent and session the delivery was mapped to, when it mapped to any. */
  agentId?: string;
  sessionKey?: string;
  /** The engine calls made, by `cairn lifecycle` name, in order. */
  calls: string[];
}

export interface HarnessDeliveryContext {
  lifecycle: LifecycleApi;
  env: Record<string, string | undefined>;
}

/**
 * One harness: its static declaration, its install, and the mapping of its
 * real payloads onto the lifecycle. `deliver` is what a `cairn hook` process
 * or an in-process plugin runs for one event; the testkit's
 * `describeHarness` replays recorded payloads through it.
 */
export interface HarnessAdapter {
  readonly declaration: HarnessDeclaration;
  /** Parses (zod) and maps one payload; invalid payloads throw INVALID_INPUT, nothing written. */
  deliver(
    delivery: HarnessDelivery,
    context: HarnessDeliveryContext,
  ): Promise<HarnessDeliveryResult>;
  install(options: HarnessInstallOptions): Promise<HarnessInstallReport>;
  uninstall(options: HarnessInstallOptions): Promise<HarnessInstallReport>;
  status(options: Omit<HarnessInstallOptions, 'dryRun'>): Promise<HarnessStatus>;
}
