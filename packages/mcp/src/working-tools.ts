import { defineTool, type MemoryTool, READ_ONLY } from './define-tool';
import {
  expandInput,
  expandOutput,
  sessionContextInput,
  sessionContextOutput,
  threadHeadInput,
  threadHeadOutput,
  threadsInput,
  threadsOutput,
} from './working-tool-schemas';

/** The engine's nulls as absent fields (see working-tool-schemas.ts). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, withoutNulls(field)]),
  );
}

const memoryExpand = defineTool({
  name: 'memory_expand',
  title: 'Expand a temporal node',
  description:
    "Drill down into a temporal node (node:<uuid> or a unique start of it, from a thread head's lineage): its summary text, " +
    'the condensed nodes above it and the nodes below it, its siblings, its thread, the unit ids linked ' +
    'to it (for memory_get) and a bounded excerpt of its session transcript. A node of another agent, ' +
    'or an unknown id, gives NOT_FOUND.',
  inputSchema: expandInput,
  outputSchema: expandOutput,
  annotations: READ_ONLY,
  run: async (cairn, { nodeId, agentId }) => ({
    structured: withoutNulls(cairn.expand(nodeId, agentId)) as object,
  }),
});

const memoryThreads = defineTool({
  name: 'memory_threads',
  title: 'List thread heads',
  description:
    'List the thread heads of working memory, most recently updated first: thread key, agent, status, ' +
    'next action, update time and the lineage node ids (for memory_expand). Read one in full with ' +
    'memory_thread_head.',
  inputSchema: threadsInput,
  outputSchema: threadsOutput,
  annotations: READ_ONLY,
  run: async (cairn, { agentId }) => ({ structured: { threads: cairn.threads(agentId) } }),
});

const memoryThreadHead = defineTool({
  name: 'memory_thread_head',
  title: 'Read a thread head',
  description:
    'Read one thread head of an agent: its state (status, decisions, open loops, next action, lineage) ' +
    'and the same as markdown. An unknown thread gives NOT_FOUND, a malformed thread key INVALID_INPUT.',
  inputSchema: threadHeadInput,
  outputSchema: threadHeadOutput,
  annotations: READ_ONLY,
  run: async (cairn, { agentId, threadKey }) => ({
    structured: cairn.threadHead(agentId, threadKey),
  }),
});

const memorySessionContext = defineTool({
  name: 'memory_session_context',
  title: 'Session start context',
  description:
    "Return the context a session start injects, as a context pack: the head of MEMORY.md, the head of the session's " +
    'thread and relevant memories, within memory.contextBudgetTokens. Records the session when it is new ' +
    '(its thread is threadKey, else the project and git branch of cwd) and marks the memories it ' +
    'returns as injected, so a repeat call for the same session leaves them out.',
  inputSchema: sessionContextInput,
  outputSchema: sessionContextOutput,
  // Not read-only: it records the session and which memories were injected.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  run: async (cairn, args) => {
    const { inject, failed } = await cairn.lifecycle.sessionStart(args);
    if (!failed) return { structured: { inject } };
    // The lifecycle fails open for harnesses; a caller that asked explicitly hears about it.
    const hint =
      'also logged in .cairn/state/lifecycle-errors.jsonl; the other memory tools still work';
    return { structured: { inject, error: { ...failed, hint } }, isError: true };
  },
});

export const WORKING_TOOLS: readonly MemoryTool[] = [
  memoryExpand,
  memoryThreads,
  memoryThreadHead,
  memorySessionContext,
];
