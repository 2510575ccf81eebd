import type { HarnessDeclaration } from '@cairn/core';

/**
 * What Cairn gets from Codex 0.169, event by event. Every claim here is
 * exercised by `codex.e2e.test.ts` against the pinned CLI (installed with
 * `cairn install codex`, hooks trusted by the install, no trust bypass):
 * the injected head and prompt recall reach /v1/responses as developer
 * messages, the prompt and the MCP tool call land in the lineage transcript,
 * memory_add over MCP writes today's daily file, an auto-compaction yields a
 * compaction node holding the rollout's summary, and session end writes the
 * session_summary node and refreshes MEMORY.md's head.
 */
export const codexFidelity = {
  id: 'codex',
  name: 'Codex',
  harnessPackage: '@openai/codex',
  checkedVersion: '0.169.0',
  integration: 'hook-process',
  events: {
    sessionStart: {
      level: 'full',
      via: ['SessionStart'],
      note: 'fires at startup and again when a session is resumed or compacted (source "resume", "compact"), injecting the head each time',
    },
    userPromptSubmit: { level: 'full', via: ['UserPromptSubmit'] },
    toolUse: { level: 'full', via: ['PostToolUse'] },
    preCompaction: {
      level: 'degraded',
      via: ['PreCompact'],
      fallback:
        'Codex takes no output from PreCompact: Cairn records the boundary but cannot ask the compaction to keep the head; the head is injected again by SessionStart (source "compact") after it',
    },
    compactionComplete: {
      level: 'full',
      via: ['PostCompact', 'rollout file (transcript_path) `compacted` item'],
      note: 'PostCompact carries no summary; Cairn reads it from the last `compacted` item of the rollout JSONL',
    },
    sessionEnd: {
      level: 'full',
      via: ['SessionEnd'],
      note: 'Codex clamps SessionEnd hooks to 3 s: the model summary is deferred to the next session start; the final answer is read from the rollout (transcript_path) for the run digest',
    },
  },
  transcriptCapture: 'live',
  injection:
    '`additionalContext` of SessionStart and UserPromptSubmit hook output, which Codex adds as developer messages',
  tools:
    'stdio MCP server `[mcp_servers.cairn]` in config.toml; the model sees the `mcp__cairn` namespace',
  afterToolInjection: {
    level: 'full',
    via: ['PostToolUse'],
    note: 'additionalContext of PostToolUse (PostToolUseHookSpecificOutputWire in 0.169.0)',
  },
  evidence: {
    sessionStart: {
      file: 'codex.e2e.test.ts',
      test: 'run 1: injection, prompt recall, transcript, memory_add over MCP, session end',
    },
    userPromptSubmit: {
      file: 'codex.e2e.test.ts',
      test: 'run 1: injection, prompt recall, transcript, memory_add over MCP, session end',
    },
    toolUse: {
      file: 'codex.e2e.test.ts',
      test: 'run 1: injection, prompt recall, transcript, memory_add over MCP, session end',
    },
    preCompaction: {
      file: 'codex.e2e.test.ts',
      test: 'run 2: the resumed session auto-compacts; the compaction node holds the rollout summary',
    },
    compactionComplete: {
      file: 'codex.e2e.test.ts',
      test: 'run 2: the resumed session auto-compacts; the compaction node holds the rollout summary',
    },
    sessionEnd: {
      file: 'codex.e2e.test.ts',
      test: 'run 1: injection, prompt recall, transcript, memory_add over MCP, session end',
    },
    afterToolInjection: {
      file: 'codex.history.e2e.test.ts',
      test: 'learns a fix in one session and injects it after the same failure in the next',
    },
  },
  limits: [
    'Codex runs hooks only once trusted: `cairn install codex` writes `[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash` for its own hooks into $CODEX_HOME/config.toml; run `cairn install codex` again in a moved or newly cloned project (the key holds the path of hooks.json, the hash covers the command); there it also drops the trust entries of a hooks file that is gone, and `cairn doctor` says "not trusted" until then',
    "Codex edits config.toml itself (`codex exec --trust` adds `[projects.\"<root>\"]`) and puts a new table after the file's last table: Cairn's blocks stand before the first table so Codex's tables land after them, and a table of Codex's found inside a Cairn block is kept (moved out) by install and uninstall; `cairn doctor` names one until then",
    'Project scope (.codex/hooks.json and .codex/config.toml) is read only in a project Codex trusts: accept Codex\'s trust prompt once, run `codex exec --trust ...`, or add `[projects."<root>"] trust_level = "trusted"` to $CODEX_HOME/config.toml',
    'SessionEnd hooks are killed after 3 s',
    "Codex (0.169) sends the first request of a turn without waiting for MCP servers: when `cairn mcp` starts slower than Codex (a loaded machine), that turn has no Cairn tools, and a one-turn `codex exec` none at all; hooks still inject and record. Add `required = true` under `[mcp_servers.cairn]` to make Codex wait (it then refuses to start when Cairn's server cannot); the install leaves this to the user so a broken Cairn never blocks Codex",
    'MCP tools are approved with `default_tools_approval_mode = "approve"` so they run when approval_policy is never',
    "Project scope: the MCP server lives in the project layer (.codex/config.toml); `codex app-server`'s `mcpServerStatus/list` reports it only for a thread started in the project (pass its `threadId`), and `codex mcp list` run in the project lists it without checking the connection",
    'Not exercised by the e2e test (it uses a local Responses provider, where Codex compacts through the model and writes the summary into the rollout): an OpenAI-hosted (remote) compaction may leave no readable summary in the rollout, and the compaction node then falls back to the configured summarizer',
  ],
} as const satisfies HarnessDeclaration;
