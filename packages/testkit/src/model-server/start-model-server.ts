import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessages } from './anthropic-messages';
import { sendJson } from './http-io';
import type { ModelServer, ModelServerScript, WireFormat } from './model-server-types';
import { openAiChat } from './openai-chat';
import { openAiResponses } from './openai-responses';
import { answerCountTokens, answerModels, answerNotFound } from './other-endpoints';
import { decodeBody, RequestLog } from './request-log';
import { createIdSource, decideReply, type ReplyContext, validateScript } from './script-rules';

const WIRE_ROUTES: Record<string, WireFormat> = {
  '/messages': anthropicMessages,
  '/chat/completions': openAiChat,
  '/responses': openAiResponses,
};

/**
 * The route without query, trailing slash or `/v1` prefix: clients differ on
 * whether the base URL they are given already ends in `/v1`.
 */
export function routeOf(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '') || '/';
  return trimmed.startsWith('/v1/') ? trimmed.slice(3) : trimmed;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface Handler {
  log: RequestLog;
  context: Omit<ReplyContext, 'callIdPrefix'>;
}

/** A model API call: record it, apply the script, answer in the same dialect. */
function answerWire(
  req: IncomingMessage,
  res: ServerResponse,
  input: { format: WireFormat; path: string; body: unknown; json: boolean },
  { log, context }: Handler,
): void {
  const { format, path, body } = input;
  const parsed = input.json ? format.parse(body) : 'the body is not JSON';
  if (typeof parsed === 'string') {
    log.record(req, { api: format.api, path, body, text: '', stream: false });
    sendJson(res, 400, format.errorBody('invalid_request_error', parsed));
    return;
  }
  const recorded = log.record(req, {
    api: format.api,
    path,
    body,
    text: parsed.text,
    stream: parsed.stream,
  });
  const reply = decideReply(parsed, recorded, { ...context, callIdPrefix: format.callIdPrefix });
  format.write({ res, request: parsed, reply, nextId: context.nextId });
}

async function handle(req: IncomingMessage, res: ServerResponse, handler: Handler) {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const route = routeOf(path);
  const { body, json } = decodeBody(await readBody(req));
  const format = WIRE_ROUTES[route];
  if (method === 'POST' && format) {
    answerWire(req, res, { format, path, body, json }, handler);
    return;
  }
  const other = (text = '') =>
    handler.log.record(req, { api: 'other', path, body, text, stream: false });
  if (method === 'POST' && route === '/messages/count_tokens') {
    other(answerCountTokens(res, body));
  } else if (method === 'GET' && (route === '/models' || route.startsWith('/models/'))) {
    other();
    answerModels(res, route);
  } else {
    other();
    answerNotFound(res, method, path);
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts a scripted stand-in for a model provider on 127.0.0.1 (a free
 * port). It speaks the Anthropic Messages API, OpenAI Chat Completions and
 * OpenAI Responses, streamed or not, so real coding-agent CLIs can run end
 * to end against it; every request is recorded. Throws a CairnError
 * (INVALID_INPUT) for a malformed script, before listening.
 */
export async function startModelServer(script?: ModelServerScript): Promise<ModelServer> {
  const handler: Handler = {
    log: new RequestLog(),
    context: { script: validateScript(script), issuedCalls: new Map(), nextId: createIdSource() },
  };
  const server = createServer((req, res) => {
    handle(req, res, handler).catch((error: unknown) => {
      // A throwing `text` function or a broken socket: answer 500 if still possible.
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: { type: 'api_error', message: String(error) } });
    });
  });
  const port = await listen(server);
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: handler.log.requests,
    requestsContaining: (needle) => handler.log.containing(needle),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
