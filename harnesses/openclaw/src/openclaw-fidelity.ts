import type { HarnessDeclaration } from '@cairn/core';
import pkg from '../package.json' with { type: 'json' };

/**
 * What the OpenClaw plugin wires, checked against the pinned CLI by
 * `openclaw.e2e.test.ts` (gateway session: start, prompt, tool call,
 * compaction, shutdown).
 */
export const openclawFidelity = {
  id: 'openclaw',
  name: 'OpenClaw',
  harnessPackage: 'openclaw',
  checkedVersion: pkg.devDependencies.openclaw,
  integration: 'in-process-plugin',
  events: {
    sessionStart: {
      level: 'full',
      via: ['session_start', 'before_prompt_build'],
      note: 'session_start fires for new gateway sessions only; `openclaw agent --local` and resumed sessions start at their first before_prompt_build',
    },
    userPromptSubmit: { level: 'full', via: ['before_prompt_build'] },
    toolUse: { level: 'full', via: ['after_tool_call'] },
    preCompaction: {
      level: 'degraded',
      via: ['before_compaction'],
      fallback:
        'observe-only: OpenClaw takes no context from this hook, and reports neither trigger nor instructions',
    },
    compactionComplete: {
      level: 'full',
      via: ['after_compaction'],
      note: "the summary is read from the session's compaction entry in OpenClaw's session store",
    },
    sessionEnd: {
      level: 'full',
      via: ['session_end', 'agent_end'],
      note: 'agent_end closes each run (the only end `openclaw agent --local` has) and its messages give the run digest the final answer; a later session_end without new activity is skipped',
    },
  },
  transcriptCapture: 'live',
  injection:
    'before_prompt_build: the session-start head as appendSystemContext, prompt recall as prependContext',
  tools:
    'MCP: `cairn mcp` registered as mcp.servers.cairn in openclaw.json (visible to `openclaw mcp probe cairn`)',
  afterToolInjection: {
    level: 'degraded',
    via: ['after_tool_call', 'before_prompt_build'],
    fallback:
      "after_tool_call returns nothing to the model: the known fix is recorded there and prepended to the session's next prompt build (prependContext), once",
  },
  evidence: {
    sessionStart: {
      file: 'openclaw.e2e.test.ts',
      test: 'injects the memory Cairn holds into the model request',
    },
    userPromptSubmit: {
      file: 'openclaw.e2e.test.ts',
      test: "injects the prompt's recall into the model request",
    },
    toolUse: {
      file: 'openclaw.e2e.test.ts',
      test: 'records the prompt and the tool call in the lineage transcript',
    },
    preCompaction: {
      file: 'openclaw.e2e.test.ts',
      test: "keeps OpenClaw's compaction summary in a compaction node",
    },
    compactionComplete: {
      file: 'openclaw.e2e.test.ts',
      test: "keeps OpenClaw's compaction summary in a compaction node",
    },
    sessionEnd: {
      file: 'openclaw.e2e.test.ts',
      test: 'writes a session summary and refreshes the head of MEMORY.md',
    },
    afterToolInjection: {
      file: 'openclaw.history.e2e.test.ts',
      test: 'learns a fix in one session and carries it into the next prompt after the same failure',
    },
  },
  limits: [
    "OpenClaw needs Node >= 24.16; the plugin loads better-sqlite3 built for that Node (CAIRN_SQLITE_BINDING or the plugin config sqliteBinding), compiled without the env cleanup hooks of Node 24's ObjectWrap: a stock better-sqlite3 12 build can abort the gateway when it garbage-collects a statement",
    'conversation hooks need plugins.entries.cairn.hooks.allowConversationAccess (install sets it)',
    'the plugin takes the memory slot (plugins.slots.memory), replacing memory-core and its memory_search tools',
    'session_end on gateway shutdown shares a 2 s drain budget: the session summary is deferred to the next session start',
    'OpenClaw has one config per user: project scope pins the plugin and MCP server to that project, user scope follows the agent workspace; after the project moves, `cairn doctor` says the pinned folder (or a plugin linked from inside it) is gone, and `cairn install openclaw --scope project` in the new folder repoints them',
  ],
} as const satisfies HarnessDeclaration;
