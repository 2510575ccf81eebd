import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The longest request line `cairn mcp` reads over stdio (8 MB); longer ones get an error answer. */
export const MAX_STDIO_LINE_BYTES = 8 * 1024 * 1024;

/** JSON-RPC 2.0 error codes for lines that never become a message. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type RequestId = string | number | null;

function idOf(value: unknown): RequestId {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const { id } = value as { id: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The stdio transport of `cairn mcp`: newline-delimited JSON-RPC, like the
 * SDK's StdioServerTransport, but a line that cannot become a message is
 * answered instead of ending the server. The SDK's transport closes on a
 * line over its buffer limit (10 MB, silently, so the client just sees the
 * server gone) and drops malformed lines unanswered. Here a line longer than
 * `maxLineBytes` is discarded as it streams in (never buffered whole) and
 * answered with Invalid Request; a line that is not JSON gets Parse error;
 * JSON that is not a JSON-RPC message gets Invalid Request. Serving goes on.
 */
export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private chunks: Buffer[] = [];
  private size = 0;
  private oversized = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxLineBytes = MAX_STDIO_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private readonly onStdinError = (error: Error) => this.onerror?.(error);

  private readonly onData = (data: Buffer | string) => {
    const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  /** Keeps part of the current line, or drops it once the line is over the limit. */
  private take(part: Buffer): void {
    if (this.oversized || part.length === 0) return;
    if (this.size + part.length > this.maxLineBytes) {
      this.oversized = true;
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    const line = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (this.oversized) {
      this.oversized = false;
      const mb = Math.round(this.maxLineBytes / (1024 * 1024));
      this.answerError(
        INVALID_REQUEST,
        `Request line larger than ${mb} MB (${this.maxLineBytes} bytes): not read`,
        null,
      );
      return;
    }
    if (line.trim() !== '') this.dispatch(line);
  }

  private dispatch(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.answerError(PARSE_ERROR, `Parse error: ${(error as Error).message}`, null);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.answerError(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message', idOf(value));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Written directly, not through send(): it answers no request the server saw. */
  private answerError(code: number, message: string, id: RequestId): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }
}
