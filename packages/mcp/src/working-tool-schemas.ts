import { z } from 'zod';
import { errorBody, UNIQUE_START } from './tool-schemas';

/*
 * Schemas of the working-memory tools (seed 002: thread heads and the
 * temporal lineage). Same rules as tool-schemas.ts: strict inputs, outputs
 * that list every field and admit `error`. Key shapes (agentId, sessionKey,
 * threadKey) are checked by the engine with core's schemas (contracts/
 * schemas.ts), the same rule as the lifecycle, the lineage and the CLI
 * flags; checked here, the SDK would answer an untyped -32602 instead of
 * INVALID_INPUT. The engine's nulls
 * become absent fields: a nullable `type: [string, null]` is refused by
 * clients that map schemas onto a single-type dialect (Gemini's OpenAPI subset).
 */

const agentId = z
  .string({ error: 'agentId is required: the agent id the lifecycle events were recorded under' })
  .describe('The agent whose working memory this is, as its harness hooks record it');

const threadKey = z
  .string({ error: 'threadKey is required: a thread key such as cairn.main' })
  .describe('A thread key as memory_threads lists it, e.g. cairn.main or topic-release');

export const expandInput = z.strictObject({
  nodeId: z
    .string({ error: 'nodeId is required: a temporal node id such as node:<uuid>' })
    .describe(
      `node:<uuid> from a thread head's lineage (memory_threads, memory_thread_head), or ${UNIQUE_START('node:1a2b3c4d')}`,
    ),
  agentId,
});

export const threadsInput = z.strictObject({
  agentId: agentId.optional().describe('Only the threads of this agent; every agent when absent'),
});

export const threadHeadInput = z.strictObject({ agentId, threadKey });

export const sessionContextInput = z.strictObject({
  agentId,
  sessionKey: z
    .string({ error: 'sessionKey is required: the id of the session being started' })
    .describe('The session id as the harness names it; unique within one agent'),
  harness: z.string().optional().describe('Harness id, e.g. claude-code or codex'),
  cwd: z
    .string()
    .optional()
    .describe(
      'The working directory; with no threadKey, the default thread is its project + git branch',
    ),
  threadKey: threadKey
    .optional()
    .describe(
      'An explicit thread (topic-<slug>, person-<slug>, ...); fixed when the session is first seen',
    ),
});

const temporalNode = z.object({
  id: z.string(),
  agentId: z.string(),
  kind: z.string().describe('session_summary, compaction, condensed or run_digest'),
  threadKey: z.string(),
  sessionKey: z.string().optional().describe('Absent for condensed nodes, which may span sessions'),
  depth: z.number().describe('0 for leaves; a condensed node is one deeper than its deepest child'),
  startAt: z.string(),
  endAt: z.string(),
  source: z.string().describe("Who wrote the text: 'harness', 'extractive', 'openai:<model>', ..."),
  text: z.string(),
  createdAt: z.string(),
});

const transcriptExcerpt = z.object({
  sessionKey: z.string(),
  harness: z.string().optional(),
  startedAt: z.string(),
  totalEntries: z.number().describe('Entries in the whole transcript'),
  entries: z
    .array(
      z.object({
        seq: z.number(),
        role: z.string().describe('user, assistant, tool or system'),
        text: z.string(),
        toolName: z
          .string()
          .optional()
          .describe('Set for tool entries when the harness named the tool'),
        at: z.string(),
        clipped: z.boolean().describe('The text was cut to a bounded length'),
      }),
    )
    .describe("Oldest first: the node's time range, else the start of the transcript"),
  truncated: z.boolean().describe('The transcript has more entries than shown'),
});

export const expandOutput = z.object({
  node: temporalNode.optional(),
  parents: z.array(temporalNode).optional().describe('Condensed nodes that consumed this one'),
  children: z.array(temporalNode).optional().describe('Nodes this one consumed'),
  siblings: z
    .array(temporalNode)
    .optional()
    .describe("Other children of the same parents; for a root, the thread's neighbouring roots"),
  thread: z.object({ threadKey: z.string(), nodeCount: z.number() }).optional(),
  linkedUnits: z
    .array(z.string())
    .optional()
    .describe('UNIT:<uuid> ids linked to the node, for memory_get'),
  transcript: transcriptExcerpt
    .optional()
    .describe('Absent when no transcript is kept for the node'),
  redacted: z
    .array(z.object({ kind: z.string(), count: z.number() }))
    .optional()
    .describe(
      'Secrets replaced in the text shown, by kind; the lineage on disk keeps the raw text',
    ),
  error: errorBody.optional(),
});

const threadFields = {
  agentId: z.string(),
  threadKey: z.string(),
  status: z.string().describe('Empty until a summary exists'),
  nextAction: z.string(),
  updatedAt: z.string(),
  lineage: z
    .array(z.string())
    .describe('Newest first: node ids the head was distilled from, for memory_expand'),
};

export const threadsOutput = z.object({
  threads: z.array(z.object(threadFields)).optional().describe('Most recently updated first'),
  error: errorBody.optional(),
});

export const threadHeadOutput = z.object({
  state: z
    .object({
      ...threadFields,
      decisions: z.array(z.string()),
      openLoops: z.array(z.string()),
      sessions: z.number().describe('Sessions that contributed'),
    })
    .optional(),
  markdown: z.string().optional().describe('The head as written to .cairn/memory/threads/'),
  error: errorBody.optional(),
});

export const sessionContextOutput = z.object({
  inject: z
    .string()
    .optional()
    .describe('The text a session start injects; empty when there is nothing to inject'),
  error: errorBody.optional(),
});
