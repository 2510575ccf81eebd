import type { ServerResponse } from 'node:http';
import {
  countTokens,
  openEventStream,
  sendJson,
  splitArguments,
  splitIntoDeltas,
  unixSeconds,
  writeEvent,
} from './http-io';
import type {
  ParsedModelRequest,
  ScriptedReply,
  WireAnswer,
  WireFormat,
} from './model-server-types';
import { parseOpenAiResponses } from './openai-responses-request';

type Json = Record<string, unknown>;

/** The single output item of an answer, in its final (completed) state. */
function outputItem(reply: ScriptedReply, itemId: string): Json {
  if (reply.kind === 'tool') {
    return {
      id: itemId,
      type: 'function_call',
      status: 'completed',
      call_id: reply.callId,
      name: reply.tool.name,
      ...(reply.tool.namespace ? { namespace: reply.tool.namespace } : {}),
      arguments: JSON.stringify(reply.input),
    };
  }
  return {
    id: itemId,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: reply.text, annotations: [] }],
  };
}

function usage(request: ParsedModelRequest, reply: ScriptedReply): Json {
  const input_tokens = countTokens(request.text);
  const output_tokens = countTokens(
    reply.kind === 'tool' ? JSON.stringify(reply.input) : reply.text,
  );
  return {
    input_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input_tokens + output_tokens,
  };
}

/** Writes `response.*` events with increasing sequence numbers. */
function eventWriter(res: ServerResponse): (type: string, fields: Json) => void {
  let sequence = 0;
  return (type, fields) => {
    writeEvent(res, type, { type, sequence_number: sequence, ...fields });
    sequence += 1;
  };
}

/** The events between `output_item.added` and `output_item.done` for one item. */
function streamItemBody(
  emit: (type: string, fields: Json) => void,
  reply: ScriptedReply,
  item: Json,
) {
  const at = { item_id: item.id, output_index: 0 };
  if (reply.kind === 'tool') {
    for (const delta of splitArguments(reply.input)) {
      emit('response.function_call_arguments.delta', { ...at, delta });
    }
    emit('response.function_call_arguments.done', {
      ...at,
      name: reply.tool.name,
      arguments: item.arguments,
    });
    return;
  }
  const part = { ...at, content_index: 0 };
  emit('response.content_part.added', {
    ...part,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const delta of splitIntoDeltas(reply.text)) {
    emit('response.output_text.delta', { ...part, delta, logprobs: [] });
  }
  emit('response.output_text.done', { ...part, text: reply.text, logprobs: [] });
  emit('response.content_part.done', {
    ...part,
    part: { type: 'output_text', text: reply.text, annotations: [] },
  });
}

function streamResponse(res: ServerResponse, response: Json, reply: ScriptedReply, item: Json) {
  const emit = eventWriter(res);
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  openEventStream(res);
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  const started =
    reply.kind === 'tool'
      ? { ...item, status: 'in_progress', arguments: '' }
      : { ...item, status: 'in_progress', content: [] };
  emit('response.output_item.added', { output_index: 0, item: started });
  streamItemBody(emit, reply, item);
  emit('response.output_item.done', { output_index: 0, item });
  emit('response.completed', { response });
  res.end();
}

function writeOpenAiResponses({ res, request, reply, nextId }: WireAnswer): void {
  const item = outputItem(reply, nextId(reply.kind === 'tool' ? 'fc_' : 'msg_'));
  const response = {
    id: nextId('resp_'),
    object: 'response',
    created_at: unixSeconds(),
    status: 'completed',
    model: request.model,
    output: [item],
    parallel_tool_calls: true,
    error: null,
    incomplete_details: null,
    usage: usage(request, reply),
  };
  if (request.stream) streamResponse(res, response, reply, item);
  else sendJson(res, 200, response);
}

export const openAiResponses: WireFormat = {
  api: 'openai-responses',
  callIdPrefix: 'call_',
  parse: parseOpenAiResponses,
  write: writeOpenAiResponses,
  errorBody: (type, message) => ({ error: { type, message, param: null, code: null } }),
};
