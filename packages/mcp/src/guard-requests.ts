import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC "invalid params". */
export const INVALID_PARAMS = -32602;

/**
 * Why a `tools/call` request is malformed (its params are not the MCP
 * shape, e.g. `arguments` is a string), or undefined. The SDK would answer
 * such a request with -32603 "internal error"; it is the caller's error.
 */
export function malformedToolCall(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) {
    return undefined;
  }
  const parsed = CallToolRequestSchema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'params';
  return `Invalid params: ${where}: ${issue?.message ?? 'not a tools/call request'} (arguments must be a JSON object)`;
}

/**
 * Answers malformed `tools/call` requests with -32602 before the server
 * sees them. Call after `server.connect(transport)`, which installs the
 * server's `onmessage`; works for every transport (stdio, HTTP).
 */
export function guardToolCalls(transport: Transport): void {
  const inner = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const reason = malformedToolCall(message);
    if (reason && 'id' in message) {
      void transport.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: INVALID_PARAMS, message: reason },
      });
      return;
    }
    inner?.(message, extra);
  };
}
