import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny OpenAI-compatible endpoint for the summarizer tests: it records
 * each request and answers with whatever the test's responder says.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type Reply = { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

export interface ChatTestServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A chat completion whose first choice carries `content`. */
export function completion(content: string | null): { status: number; body: unknown } {
  return {
    status: 200,
    body: { id: 'chatcmpl-test', choices: [{ index: 0, message: { role: 'assistant', content } }] },
  };
}

export async function startChatServer(
  respond: (request: RecordedRequest, index: number) => Reply,
): Promise<ChatTestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
      requests.push(recorded);
      const reply = respond(recorded, requests.length - 1);
      if (reply === 'hang') return;
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A base URL nothing listens on: a server is started, and closed again. */
export async function closedBaseUrl(): Promise<string> {
  const server = await startChatServer(() => completion('unused'));
  await server.close();
  return server.baseUrl;
}
