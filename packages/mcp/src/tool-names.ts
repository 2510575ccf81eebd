/** The tools every Cairn MCP server lists, in this order: project memory, then working memory. */
export const MEMORY_TOOL_NAMES = [
  'memory_add',
  'memory_replace',
  'memory_remove',
  'memory_get',
  'memory_list',
  'memory_search',
  'memory_read_head',
  'memory_expand',
  'memory_threads',
  'memory_thread_head',
  'memory_session_context',
  'memory_context_pack',
  'memory_run_digest',
  'memory_review',
] as const;

export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];
