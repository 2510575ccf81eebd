import { lazySchema } from '@cairn/core';
import * as z from 'zod/mini';

/**
 * A run digest (seed 004 §5.3.1): what one session set out to do, how it
 * ended, what it changed, what it decided, which errors it met and how
 * each ended, and what is left. A run is one session of one agent: its id
 * is the session key. Derived data: it can be rebuilt from the transcript
 * and git, and it links back to both.
 */

/**
 * `unknown`: the session ended on a prompt and the harness did not hand
 * over the agent's answer, so whether it answered cannot be told.
 */
export const RUN_OUTCOMES = ['succeeded', 'failed', 'abandoned', 'unknown'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/**
 * The system entry a session end writes when the harness read its own
 * transcript and the agent had not answered the last prompt: the digest
 * then knows the run was abandoned, not merely unread.
 */
export const NO_FINAL_ANSWER = 'session end: the agent did not answer the last prompt';

const gotchaSchema = lazySchema(() =>
  z.object({
    signature: z.string(),
    family: z.string(),
    /** The signature's readable key (see errorSignature). */
    normalized: z.string(),
    /** The command that failed, for shell tools. */
    command: z.optional(z.string()),
    /** The tool event that first failed: `<transcriptId>:<seq>`. */
    eventId: z.string(),
    /** How many events of the run failed with it. */
    count: z.number(),
    status: z.enum(['resolved', 'unresolved']),
    /** The later event of the same command family that succeeded. */
    resolvedBy: z.optional(z.string()),
  }),
);
export type Gotcha = z.infer<typeof gotchaSchema>;

const commitSchema = lazySchema(() =>
  z.object({ sha: z.string(), subject: z.string(), at: z.string() }),
);

export const runDigestSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    runId: z.string(),
    agentId: z.string(),
    threadKey: z.string(),
    harness: z.optional(z.string()),
    /** The folder the session ran in (the repository). */
    repo: z.optional(z.string()),
    /** The memory namespace it was recorded in (`memory.namespace`); absent on older digests: `default`. */
    namespace: z.optional(z.string()),
    startedAt: z.string(),
    endedAt: z.string(),
    intent: z.string(),
    outcome: z.enum(RUN_OUTCOMES),
    /** Why that outcome, in a few words. */
    outcomeReason: z.string(),
    changes: z.object({
      commits: z.array(commitSchema),
      diffstat: z.optional(
        z.object({
          from: z.string(),
          to: z.string(),
          files: z.number(),
          insertions: z.number(),
          deletions: z.number(),
          paths: z.array(z.string()),
        }),
      ),
      /** Files named by edit tools (Edit, Write, apply_patch, ...). */
      editedFiles: z.array(z.string()),
      /** Why git gave nothing, when it did not (no git, not a repository, timeout). */
      gitNote: z.optional(z.string()),
    }),
    decisions: z.array(z.string()),
    gotchas: z.array(gotchaSchema),
    nextSteps: z.array(z.string()),
    /** Who wrote the decisions and next steps: `extractive`, `openai:<model>`, `harness`. */
    narrativeSource: z.string(),
    evidence: z.object({
      sessionKey: z.string(),
      transcriptId: z.optional(z.number()),
      /** Transcript entries the digest covers (a resumed run is digested again past this). */
      entries: z.number(),
      /** The session summary node the decisions and next steps come from. */
      summaryNodeId: z.optional(z.string()),
      commits: z.array(z.string()),
      /** Tool events the gotchas and edits rest on, `<transcriptId>:<seq>`. */
      toolEventIds: z.array(z.string()),
    }),
  }),
);
export type RunDigest = z.infer<typeof runDigestSchema>;

/** The namespace a digest was recorded in (older digests, before namespaces: `default`). */
export function digestNamespace(digest: Pick<RunDigest, 'namespace'>): string {
  return digest.namespace ?? 'default';
}

/** A stored digest: the digest and the lineage node that holds it. */
export interface StoredRunDigest {
  nodeId: string;
  createdAt: string;
  digest: RunDigest;
}
