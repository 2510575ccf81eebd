import type { ServerResponse } from 'node:http';
import { anthropicMessages } from './anthropic-messages';
import { countTokens, sendJson } from './http-io';

/** The model id the lists advertise; clients may ask for any other id. */
export const SCRIPTED_MODEL_ID = 'scripted-model';

/**
 * One model entry carrying the fields of both lists (Anthropic: type,
 * display_name, created_at; OpenAI: object, created, owned_by), so either
 * client parses it.
 */
function modelEntry(id: string): Record<string, unknown> {
  return {
    id,
    type: 'model',
    object: 'model',
    display_name: id,
    created_at: new Date(0).toISOString(),
    created: 0,
    owned_by: 'cairn-testkit',
  };
}

/** `GET /v1/models` (both APIs) and `GET /v1/models/<id>`. */
export function answerModels(res: ServerResponse, route: string): void {
  const id = route.slice('/models/'.length);
  if (route.startsWith('/models/') && id.length > 0) {
    sendJson(res, 200, modelEntry(decodeURIComponent(id)));
    return;
  }
  sendJson(res, 200, {
    object: 'list',
    data: [modelEntry(SCRIPTED_MODEL_ID)],
    has_more: false,
    first_id: SCRIPTED_MODEL_ID,
    last_id: SCRIPTED_MODEL_ID,
  });
}

/** `POST /v1/messages/count_tokens`: a rough count of the prompt (about 4 characters a token). */
export function answerCountTokens(res: ServerResponse, body: unknown): string {
  const parsed = anthropicMessages.parse(body);
  if (typeof parsed === 'string') {
    sendJson(res, 400, anthropicMessages.errorBody('invalid_request_error', parsed));
    return '';
  }
  sendJson(res, 200, { input_tokens: countTokens(parsed.text) });
  return parsed.text;
}

/** Anything else: a 404 in a shape both SDKs turn into a readable error. */
export function answerNotFound(res: ServerResponse, method: string, path: string): void {
  const message = `the scripted model server has no route ${method} ${path}`;
  sendJson(res, 404, {
    type: 'error',
    error: { type: 'not_found_error', message, param: null, code: null },
  });
}
