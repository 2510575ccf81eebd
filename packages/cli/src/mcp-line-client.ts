// Shared by the tests only: a JSON-RPC client of the MCP server's stdio line protocol, in process.
import { PassThrough } from 'node:stream';

export interface Response {
  id?: number;
  error?: { code: number; message: string };
  result?: {
    isError?: boolean;
    structuredContent?: { error?: string | { code: string } };
    content?: Array<{ type: string; text?: string }>;
  };
}

/** A client over two in-memory pipes: one JSON-RPC message a line each way. */
export class LineClient {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  private buffer = '';
  private readonly waiting = new Map<number, (response: Response) => void>();
  private nextId = 1;

  constructor() {
    this.stdout.setEncoding('utf8');
    this.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        const message = JSON.parse(line) as Response;
        if (typeof message.id === 'number') this.waiting.get(message.id)?.(message);
      }
    });
  }

  /** Sends `line(id)` and resolves with the answer to `id`. */
  request(line: (id: number) => string): Promise<Response> {
    const id = this.nextId++;
    const answered = new Promise<Response>((resolve) => this.waiting.set(id, resolve));
    this.stdin.write(`${line(id)}\n`);
    return answered;
  }

  call(method: string, params: unknown): Promise<Response> {
    return this.request((id) => JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }

  /** A line that may not be a request at all; a ping after it proves the server still answers. */
  async raw(line: string): Promise<Response> {
    this.stdin.write(`${line.replace(/\n/g, ' ')}\n`);
    return this.call('ping', {});
  }
}
