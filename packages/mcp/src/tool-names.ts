/** The tools every Cairn MCP server lists, in this order: project memory, working memory, packs, task history, maintenance. */
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
  'memory_fix_patterns',
  'memory_fix_pattern',
  'memory_fix_pattern_approve',
  'memory_fix_pattern_deprecate',
  'memory_proposals',
  'memory_proposal_decide',
  'memory_stale_units',
  'memory_insights_run',
] as const;

export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];
