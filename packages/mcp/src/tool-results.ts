import { CairnError, redactStrings, typedFileSystemError } from '@cairn/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What a tool hands back before it becomes a CallToolResult. */
export interface ToolOutcome {
  structured: object;
  isError?: boolean;
}

/**
 * Structured content plus the same JSON as text, for clients that only read
 * text. The one redaction step of the MCP server: every answer of every
 * tool, errors included, reaches the agent through here, so every string in
 * it goes through redactSecrets (a fix pattern's error text, a thread's
 * head, an error message quoting its input). Tools that list what they
 * replaced (`redacted`) did so on their own answer first.
 */
export function toolResult({ structured, isError }: ToolOutcome): CallToolResult {
  const { value } = redactStrings(structured);
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

export interface ToolErrorBody {
  code: string;
  message: string;
  hint?: string;
}

/** A thrown value as `{ code, message, hint? }`: the CairnError's code, or INTERNAL. */
export function toolErrorBody(thrown: unknown): ToolErrorBody {
  // A raw EACCES/EPERM/EROFS/ENOSPC is the system refusing, not a bug.
  const error = typedFileSystemError(thrown);
  if (CairnError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.hint ? { hint: error.hint } : {}),
    };
  }
  return {
    code: 'INTERNAL',
    message: error instanceof Error ? error.message : String(error),
    hint: "a bug in Cairn, not in your input: report it with the server's stderr log",
  };
}

/** A thrown error as a tool error: the server answers it and keeps running. */
export function toolErrorResult(error: unknown): CallToolResult {
  return toolResult({ structured: { error: toolErrorBody(error) }, isError: true });
}
