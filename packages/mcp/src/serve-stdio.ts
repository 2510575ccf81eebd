import type { Readable, Writable } from 'node:stream';
import type { Cairn } from '@cairn/engine';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type CairnMcpServerOptions, createCairnMcpServer } from './create-cairn-mcp-server';
import { guardToolCalls } from './guard-requests';
import { MAX_STDIO_LINE_BYTES, StdioLineTransport } from './stdio-line-transport';

/** A running server: `closed` settles once it has stopped, whoever stopped it. */
export interface McpServerHandle {
  close(): Promise<void>;
  readonly closed: Promise<void>;
}

export interface ServeStdioOptions extends CairnMcpServerOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`: nothing else may write there while serving. */
  stdout?: Writable;
  /**
   * The longest request line read (default 8 MB): a longer one is answered
   * with a JSON-RPC Invalid Request error and skipped, and serving goes on.
   */
  maxLineBytes?: number;
}

const isRequest = (message: JSONRPCMessage) => 'method' in message && 'id' in message;
const isResponse = (message: JSONRPCMessage) => !('method' in message) && 'id' in message;

/**
 * Serves the memory tools on stdin/stdout until stdin ends or `close()` is
 * called. When stdin ends (the client hung up, or a piped script ran out)
 * the requests already received are still answered before the server stops.
 * Once stopped, the working memory of `cairn` is closed (`closeWorking`).
 * A line that is too long, not JSON or not JSON-RPC gets a JSON-RPC error
 * answer (see StdioLineTransport) and the server keeps serving.
 */
export async function serveStdio(
  cairn: Cairn,
  options: ServeStdioOptions = {},
): Promise<McpServerHandle> {
  const {
    stdin = process.stdin,
    stdout = process.stdout,
    maxLineBytes = MAX_STDIO_LINE_BYTES,
    ...serverOptions
  } = options;
  const server = createCairnMcpServer(cairn, serverOptions);
  const transport = new StdioLineTransport(stdin, stdout, maxLineBytes);
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  // The server owns the working-memory stores from here: close their SQLite handles once stopped.
  transport.onclose = () => {
    cairn.closeWorking();
    markClosed();
  };

  let pending = 0;
  let inputEnded = false;
  const closeWhenDrained = () => {
    if (inputEnded && pending === 0) void server.close();
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (isResponse(message)) pending -= 1;
    closeWhenDrained();
  };
  const onEnd = () => {
    inputEnded = true;
    closeWhenDrained();
  };
  // A client that dies mid-answer leaves an EPIPE on stdout: stop instead of crashing.
  const onBrokenPipe = () => void server.close();
  stdin.once('end', onEnd);
  stdout.on('error', onBrokenPipe);
  void closed.then(() => {
    stdin.off('end', onEnd);
    stdout.off('error', onBrokenPipe);
  });

  await server.connect(transport);
  guardToolCalls(transport);
  // Counted outermost, so requests the guard answers itself are counted too.
  const served = transport.onmessage;
  transport.onmessage = (message) => {
    if (isRequest(message)) pending += 1;
    served?.(message);
  };
  return { close: () => server.close(), closed };
}
