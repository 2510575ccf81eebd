import type {
  HarnessDeclaration,
  HarnessInstallOptions,
  HarnessInstallReport,
  HarnessStatus,
} from '@cairn/core';
import type { WorkingApi } from '../working-api';

/** The lifecycle calls of one project's working memory (`openCairn(root).lifecycle`). */
export type LifecycleApi = WorkingApi['lifecycle'];

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
