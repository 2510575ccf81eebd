import type { HarnessDeclaration } from '@cairn/core';

/**
 * What the OpenCode plugin wires, checked against opencode-ai 1.18.33 by
 * `opencode.e2e.test.ts` (a real `opencode serve` + `opencode run --attach`
 * session against a scripted model server).
 */
export const opencodeFidelity = {
  id: 'opencode',
  name: 'OpenCode',
  harnessPackage: 'opencode-ai',
  checkedVersion: '1.18.33',
  integration: 'in-process-plugin',
  events: {
    sessionStart: {
      level: 'full',
      via: ['event session.created'],
      note: 'a session the plugin first meets at a prompt (resumed with --continue) is started there, source "resume"',
    },
    userPromptSubmit: { level: 'full', via: ['chat.message'] },
    toolUse: { level: 'full', via: ['tool.execute.after'] },
    preCompaction: { level: 'full', via: ['experimental.session.compacting'] },
    compactionComplete: {
      level: 'full',
      via: ['event session.compacted'],
      note: 'the summary is the assistant message with summary: true, read through the SDK client',
    },
    sessionEnd: {
      level: 'degraded',
      via: ['event session.idle', 'event session.deleted', 'dispose'],
      fallback:
        'OpenCode has no session-end event: a session ends when it goes idle (end of a turn), is deleted, or the plugin is disposed; a later prompt in the same session re-opens it and the next idle writes another session_summary node; the final answer for the run digest comes from the session messages the plugin reads through its client',
    },
  },
  transcriptCapture: 'live',
  injection:
    "experimental.chat.system.transform: the session-start block and the latest prompt recall are added to the system prompt of every model request of that session; experimental.session.compacting adds Cairn's head to the compaction prompt (output.context)",
  tools:
    'MCP: `cairn mcp` registered as the local server "cairn" in opencode.json (tools reach the model as cairn_<tool>)',
  afterToolInjection: {
    level: 'full',
    via: ['tool.execute.after', 'experimental.chat.system.transform'],
    note: "the fix joins the session's system lines, so the model request that follows the tool result carries it",
  },
  evidence: {
    sessionStart: {
      file: 'opencode.e2e.test.ts',
      test: 'injects at start, captures the prompt and the tool call, and ends at idle',
    },
    userPromptSubmit: {
      file: 'opencode.e2e.test.ts',
      test: 'injects at start, captures the prompt and the tool call, and ends at idle',
    },
    toolUse: {
      file: 'opencode.e2e.test.ts',
      test: 'injects at start, captures the prompt and the tool call, and ends at idle',
    },
    preCompaction: {
      file: 'opencode.e2e.test.ts',
      test: 'puts the head into the compaction prompt and keeps the harness summary',
    },
    compactionComplete: {
      file: 'opencode.e2e.test.ts',
      test: 'puts the head into the compaction prompt and keeps the harness summary',
    },
    sessionEnd: {
      file: 'opencode.e2e.test.ts',
      test: 'ends once more after compaction, refreshes the head, and the next session gets it',
    },
    afterToolInjection: {
      file: 'opencode.history.e2e.test.ts',
      test: 'learns a fix in one session and injects it after the same failure in the next',
    },
  },
  limits: [
    "runs inside OpenCode's Bun runtime, where SQLite goes through bun:sqlite instead of better-sqlite3",
    'experimental.* hooks may change between OpenCode releases; re-check on upgrade',
    "the injected block also reaches the session's title-generation request (the transform has no way to tell them apart)",
    "OpenCode installs @opencode-ai/plugin into its config folders with npm on first start (not Cairn's doing)",
    "installed at both the project and the user scope, OpenCode loads the plugin twice: the second copy stands down (one per project and process, said in OpenCode's log), and `cairn install` and `cairn doctor` name the command that keeps one",
  ],
} as const satisfies HarnessDeclaration;
