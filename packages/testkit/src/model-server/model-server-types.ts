import type { ServerResponse } from 'node:http';

/** The wire format a recorded request used; `other` covers models lists, token counts, 404s. */
export type ModelApi = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'other';

/** One HTTP request the server received, kept in arrival order. */
export interface RecordedModelRequest {
  api: ModelApi;
  method: string;
  /** URL path without the query string (Claude Code adds `?beta=true`). */
  path: string;
  /** Lower-cased header names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; the raw text when it is not JSON; `undefined` when empty. */
  body: unknown;
  /**
   * Every piece of prompt text joined by newlines: system prompts,
   * instructions, developer messages, each message's text parts and tool
   * results. Lets a test assert that injected context reached the model.
   */
  text: string;
  /** Whether the client asked for a streamed (SSE) answer. */
  stream: boolean;
  /** Arrival time in milliseconds since the epoch. */
  at: number;
}

/** Answer with a call of the first offered tool whose name matches `tool`. */
export interface ToolCallRule {
  /** Tested against every name the tool is offered under (bare and namespaced). */
  tool: RegExp;
  /** The tool input the scripted model sends. */
  input: Record<string, unknown>;
  /**
   * Fire only when the conversation holds exactly this many tool results
   * (whatever the tools), instead of once per tool: scripts a sequence
   * that calls one tool twice, e.g. a command, an edit, the command again.
   */
  afterResults?: number;
}

/** What the scripted model answers; every field is optional. */
export interface ModelServerScript {
  /** Final text of a normal turn; default `OK.`. */
  text?: string | ((request: RecordedModelRequest) => string);
  /** Tried in order; a rule fires once per conversation (until a result for it comes back). */
  toolCalls?: ToolCallRule[];
  /** Answer to compaction/summarisation requests; default {@link DEFAULT_COMPACTION_SUMMARY}. */
  compactionSummary?: string;
}

export interface ModelServer {
  /** Origin without a trailing slash, e.g. `http://127.0.0.1:43121`; clients append `/v1`. */
  url: string;
  port: number;
  /** Every request received so far, oldest first (the live array). */
  requests: RecordedModelRequest[];
  /** The recorded requests whose `text` contains `needle`. */
  requestsContaining(needle: string): RecordedModelRequest[];
  /** Stops listening and ends open connections, including streams in progress. */
  close(): Promise<void>;
}

/** A tool as the client offered it. */
export interface OfferedTool {
  /** The name to put in the tool call. */
  name: string;
  /** Responses API namespace (Codex offers MCP tools as `mcp__<server>`). */
  namespace?: string;
  /** Every name a rule may match: the bare name and, if namespaced, the joined one. */
  matchNames: string[];
}

/** A request reduced to what the scripting rules and the recorder need. */
export interface ParsedModelRequest {
  model: string;
  stream: boolean;
  /** Chat Completions `stream_options.include_usage`: send a final usage chunk. */
  includeUsage?: boolean;
  /** All prompt text, as recorded. */
  text: string;
  /** System prompts, instructions and developer messages only. */
  systemText: string;
  /** Text of the last user message (compaction prompts arrive there). */
  lastUserText: string;
  tools: OfferedTool[];
  /** Names of tools whose calls already have a result in the conversation. */
  answeredToolNames: Set<string>;
  /** Call ids that have a result, for calls this server issued but the client did not echo. */
  answeredCallIds: Set<string>;
}

/** What the scripted model decided to say. */
export type ScriptedReply =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; tool: OfferedTool; input: Record<string, unknown>; callId: string };

/** One API dialect: how to read its requests and write its answers. */
export interface WireFormat {
  api: Exclude<ModelApi, 'other'>;
  /** Prefix of tool-call ids in this API (`toolu_`, `call_`). */
  callIdPrefix: string;
  /** Reads a JSON body; returns a reason string when the shape is unusable. */
  parse(body: unknown): ParsedModelRequest | string;
  /** Writes the answer, streamed or not as the request asked. */
  write(answer: WireAnswer): void;
  /** The API's error envelope, for 400/500 answers. */
  errorBody(type: string, message: string): unknown;
}

export interface WireAnswer {
  res: ServerResponse;
  request: ParsedModelRequest;
  reply: ScriptedReply;
  nextId: (prefix: string) => string;
}
