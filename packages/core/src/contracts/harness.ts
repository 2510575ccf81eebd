/**
 * The harness contract (issue 5). Each harness adapter package declares,
 * as static data, what it wires for every Cairn lifecycle event; the
 * compatibility matrix in docs/HARNESSES.md is generated from these
 * declarations, and each claim is exercised by the package's e2e tests.
 */

/** Cairn's lifecycle events, in the order a session meets them. */
export const HARNESS_EVENTS = [
  'sessionStart',
  'promptSubmit',
  'toolUse',
  'preCompaction',
  'compactionComplete',
  'sessionEnd',
] as const;
export type HarnessEvent = (typeof HARNESS_EVENTS)[number];

/** The engine lifecycle call each event maps onto (`cairn lifecycle <name>`). */
export const HARNESS_EVENT_LIFECYCLE: Record<HarnessEvent, string> = {
  sessionStart: 'session-start',
  promptSubmit: 'user-prompt-submit',
  toolUse: 'tool-use',
  preCompaction: 'pre-compaction',
  compactionComplete: 'compaction-complete',
  sessionEnd: 'session-end',
};

export type EventFidelity =
  /** The harness hook(s) in `via` deliver the event with everything Cairn needs. */
  | { level: 'full'; via: string[]; note?: string }
  /** Delivered through a substitute; `fallback` says what is lost or approximated. */
  | { level: 'degraded'; via: string[]; fallback: string }
  /** Not delivered at all. */
  | { level: 'none'; reason: string };

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
  problems: string[];
}
