import type { HarnessDeclaration } from '@cairn/core';

/**
 * What Cairn wires in Claude Code, per lifecycle event. Every claim here is
 * exercised against the pinned CLI by `claude-code.e2e.test.ts`.
 */
export const claudeCodeFidelity = {
  id: 'claude-code',
  name: 'Claude Code',
  harnessPackage: '@anthropic-ai/claude-code',
  checkedVersion: '2.1.330',
  integration: 'hook-process',
  events: {
    sessionStart: {
      level: 'full',
      via: ['SessionStart'],
      note: 'every source (startup, resume, clear, compact, fork); after a compaction the head is injected again',
    },
    userPromptSubmit: { level: 'full', via: ['UserPromptSubmit'] },
    toolUse: {
      level: 'full',
      via: ['PostToolUse', 'PostToolUseFailure'],
      note: 'successful tool calls (PostToolUse) and failed ones (PostToolUseFailure, its error text)',
    },
    preCompaction: {
      level: 'full',
      via: ['PreCompact'],
      note: "the hook's output is added to the compaction instructions, asking the summary to keep the project head and thread state",
    },
    compactionComplete: {
      level: 'full',
      via: ['PostCompact'],
      note: 'compact_summary (the summary Claude Code wrote) becomes the compaction node',
    },
    sessionEnd: {
      level: 'full',
      via: ['SessionEnd'],
      note: 'the session_summary node is written at once; the model-written summary is deferred to the next session start; the final answer is read from the transcript (transcript_path) for the run digest',
    },
  },
  transcriptCapture: 'live',
  injection:
    'additionalContext of the SessionStart and UserPromptSubmit hooks; PreCompact output joins the compaction instructions',
  tools:
    'MCP server "cairn" (stdio, `cairn mcp`): tools mcp__cairn__memory_*, pre-allowed by the permission rule mcp__cairn',
  afterToolInjection: {
    level: 'full',
    via: ['PostToolUse', 'PostToolUseFailure'],
    note: 'additionalContext of the hook that follows the tool call; a failed Bash call fires PostToolUseFailure',
  },
  evidence: {
    sessionStart: {
      file: 'claude-code.e2e.test.ts',
      test: 'injects at start, records the prompt, stores memory_add and closes the session',
    },
    userPromptSubmit: {
      file: 'claude-code.e2e.test.ts',
      test: 'injects at start, records the prompt, stores memory_add and closes the session',
    },
    toolUse: {
      file: 'claude-code.e2e.test.ts',
      test: 'injects at start, records the prompt, stores memory_add and closes the session',
    },
    preCompaction: {
      file: 'claude-code.e2e.test.ts',
      test: 'compaction: PreCompact instructions reach the model, PostCompact summary becomes the node, the head comes back',
    },
    compactionComplete: {
      file: 'claude-code.e2e.test.ts',
      test: 'compaction: PreCompact instructions reach the model, PostCompact summary becomes the node, the head comes back',
    },
    sessionEnd: {
      file: 'claude-code.e2e.test.ts',
      test: 'injects at start, records the prompt, stores memory_add and closes the session',
    },
    afterToolInjection: {
      file: 'claude-code.history.e2e.test.ts',
      test: 'learns a fix in one session and injects it after the same failure in the next',
    },
  },
  limits: [
    'SessionEnd hooks are killed after 1.5 s unless CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS is raised, so the model summary of a session is written at the next session start',
    'project scope: Claude Code reads the approval of the .mcp.json server (enabledMcpjsonServers in .claude/settings.local.json) only in a trusted workspace; accept the trust prompt of `claude` once in the project',
    'assistant replies are not captured live (no hook carries them); the compaction and session summaries cover them',
    'with tool search on (the default for many MCP tools), Cairn tools are reached through the search tool; ENABLE_TOOL_SEARCH=false lists them directly',
    'the plugin runs `cairn` from PATH and its tools are named mcp__plugin_cairn_cairn__memory_*',
  ],
} as const satisfies HarnessDeclaration;
