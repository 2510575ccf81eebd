import * as z from 'zod/mini';
import type * as z4 from 'zod/v4/core';
import { MAX_NESTING_DEPTH, nestedDeeperThan } from './nesting-depth';
import {
  agentIdSchema,
  lazySchema,
  parseInput,
  sessionKeySchema,
  threadKeySchema,
} from './schemas';

/*
 * The lifecycle contract (ARCHITECTURE.md "Lifecycle events"): one table of
 * the events a harness delivers, each with one name (the method of
 * `LifecycleApi` and the key of a harness declaration), its input schema and
 * its `cairn lifecycle <cli-name>`. The engine implements `LifecycleApi`; the
 * CLI and the harness adapters read the table.
 */

/* zod/mini: hooks start a process per event (see core's contracts/schemas.ts). */
const text = (max: number, min = 0) =>
  z.string().check(...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
const base = { agentId: agentIdSchema, sessionKey: sessionKeySchema };

/** Inputs of the lifecycle events (ARCHITECTURE.md "Lifecycle events"); extra harness fields are ignored. */
export const sessionStartSchema = lazySchema(() =>
  z.object({
    ...base,
    harness: z.optional(text(60)),
    cwd: z.optional(text(4096)),
    /** startup | resume | clear | compact | ... as the harness names it. */
    source: z.optional(text(40)),
    /** An explicit topic or person thread; default: the project plus its git branch. */
    threadKey: z.optional(threadKeySchema),
  }),
);
export const userPromptSubmitSchema = lazySchema(() =>
  z.object({ ...base, prompt: text(200_000) }),
);
/** A tool's input or output: any value, nested at most MAX_NESTING_DEPTH levels. */
const toolValue = () =>
  z.optional(
    z
      .unknown()
      .check(
        z.refine(
          (value) => !nestedDeeperThan(value, MAX_NESTING_DEPTH),
          `nested deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects; nothing was recorded`,
        ),
      ),
  );

export const toolUseSchema = lazySchema(() =>
  z.object({
    ...base,
    toolName: text(200, 1),
    input: toolValue(),
    output: toolValue(),
  }),
);
export const preCompactionSchema = lazySchema(() =>
  z.object({
    ...base,
    trigger: z.optional(text(40)),
    customInstructions: z.optional(text(20_000)),
  }),
);
export const compactionCompleteSchema = lazySchema(() =>
  z.object({
    ...base,
    summary: z.optional(text(200_000)),
  }),
);
/** The longest final answer kept (its head: what the work came to is said first). */
export const FINAL_ANSWER_CHARS = 20_000;

export const sessionEndSchema = lazySchema(() =>
  z.object({
    ...base,
    reason: z.optional(text(200)),
    /** Hooks with a short budget: the model summary waits for the next session start. */
    deferSummary: z.optional(z.boolean()),
    /**
     * The agent's last answer, as the harness's transcript holds it: a
     * string; `null` when the harness read its transcript and the agent did
     * not answer the last prompt; absent when the harness cannot tell (the
     * run's outcome is then `unknown` rather than `abandoned`).
     */
    finalAnswer: z.optional(z.nullable(text(200_000))),
  }),
);

export type SessionStartInput = z.input<typeof sessionStartSchema>;
export type UserPromptSubmitInput = z.input<typeof userPromptSubmitSchema>;
export type ToolUseInput = z.input<typeof toolUseSchema>;
export type PreCompactionInput = z.input<typeof preCompactionSchema>;
export type CompactionCompleteInput = z.input<typeof compactionCompleteSchema>;
export type SessionEndInput = z.input<typeof sessionEndSchema>;

/** What an event hands back to the harness; `failed` is set when it failed open. */
export interface LifecycleResult {
  /** Text to inject into the model's context; empty when there is nothing new. */
  inject: string;
  /** The temporal node written, if any. */
  nodeId?: string;
  /** Set when an internal failure was swallowed (see `cairn doctor`). */
  failed?: { code: string; message: string };
}

/**
 * The lifecycle calls of one project's working memory
 * (`(await openCairn(root)).lifecycle`). Invalid input throws INVALID_INPUT before
 * anything is written; any other failure is logged under .cairn/state/ and
 * answered with an empty result (`failed` set), so memory trouble never
 * blocks the agent.
 */
export interface LifecycleApi {
  /**
   * A session starts or resumes: opens (or continues) its thread and
   * injects the session-start pack (the thread's state, the heads, what it
   * asks for), so the agent begins where the last session left off.
   */
  sessionStart(input: SessionStartInput): Promise<LifecycleResult>;
  /** A prompt: recorded in the lineage, and answered with the pack relevant to it. */
  userPromptSubmit(input: UserPromptSubmitInput): Promise<LifecycleResult>;
  /** A tool call and its result: recorded, and a failure answered with the fixes known for it. */
  toolUse(input: ToolUseInput): Promise<LifecycleResult>;
  /** Before the harness compacts: what the summary must keep, so compaction loses no decision. */
  preCompaction(input: PreCompactionInput): Promise<LifecycleResult>;
  /** After compaction: the harness's summary stored as a node, so drill-down still reaches it. */
  compactionComplete(input: CompactionCompleteInput): Promise<LifecycleResult>;
  /** The session ends: its summary node, run digest and heads are written for the next one. */
  sessionEnd(input: SessionEndInput): Promise<LifecycleResult>;
}

/** Cairn's lifecycle events, in the order a session meets them. */
export const LIFECYCLE_EVENTS = {
  sessionStart: { cliName: 'session-start', schema: sessionStartSchema },
  userPromptSubmit: { cliName: 'user-prompt-submit', schema: userPromptSubmitSchema },
  toolUse: { cliName: 'tool-use', schema: toolUseSchema },
  preCompaction: { cliName: 'pre-compaction', schema: preCompactionSchema },
  compactionComplete: { cliName: 'compaction-complete', schema: compactionCompleteSchema },
  sessionEnd: { cliName: 'session-end', schema: sessionEndSchema },
} as const satisfies Record<keyof LifecycleApi, { cliName: string; schema: z4.$ZodType }>;

/** An event's one name: the `LifecycleApi` method and the harness declaration key. */
export type LifecycleEvent = keyof typeof LIFECYCLE_EVENTS;
/** Its `cairn lifecycle <name>`, as users have it in hook configs. */
export type LifecycleCliName = (typeof LIFECYCLE_EVENTS)[LifecycleEvent]['cliName'];

export const LIFECYCLE_EVENT_NAMES = Object.keys(LIFECYCLE_EVENTS) as LifecycleEvent[];

/** The event a `cairn lifecycle <cliName>` runs, or undefined for an unknown name. */
export function lifecycleEventByCliName(cliName: string): LifecycleEvent | undefined {
  return LIFECYCLE_EVENT_NAMES.find((event) => LIFECYCLE_EVENTS[event].cliName === cliName);
}

/** Parses an event's input, or throws INVALID_INPUT naming the event's CLI name. */
export function parseLifecycleInput<S extends z4.$ZodType>(
  schema: S,
  value: unknown,
  event: string,
): z.output<S> {
  return parseInput(schema, value, `${event} payload`);
}
