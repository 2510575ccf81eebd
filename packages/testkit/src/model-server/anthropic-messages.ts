import type { ServerResponse } from 'node:http';
import {
  countTokens,
  openEventStream,
  sendJson,
  splitArguments,
  splitIntoDeltas,
  writeEvent,
} from './http-io';
import type {
  OfferedTool,
  ParsedModelRequest,
  ScriptedReply,
  WireAnswer,
  WireFormat,
} from './model-server-types';
import { asArray, asString, contentText, isObject, joinText } from './prompt-text';
import { ToolHistory } from './tool-history';

/** Reads `POST /v1/messages` (and count_tokens) bodies. */
export function parseAnthropicMessages(body: unknown): ParsedModelRequest | string {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (!Array.isArray(body.messages)) return '`messages` must be an array';
  const systemText = contentText(body.system);
  const history = new ToolHistory();
  const texts: string[] = [systemText];
  let lastUserText = '';
  for (const message of body.messages) {
    if (!isObject(message)) continue;
    texts.push(contentText(message.content));
    const blocks = asArray(message.content).filter(isObject);
    for (const block of blocks) {
      if (block.type === 'tool_use') history.noteCall(block.id, [String(block.name)]);
      if (block.type === 'tool_result') history.noteResult(block.tool_use_id);
    }
    if (message.role === 'user') {
      // The user's own words only: tool results are not a prompt.
      const own = Array.isArray(message.content)
        ? message.content.filter((block) => !isObject(block) || block.type !== 'tool_result')
        : message.content;
      lastUserText = contentText(own);
    }
  }
  const tools: OfferedTool[] = asArray(body.tools)
    .filter(isObject)
    .flatMap((tool) => {
      const name = asString(tool.name);
      return name ? [{ name, matchNames: [name] }] : [];
    });
  return {
    model: asString(body.model) ?? 'scripted-model',
    stream: body.stream === true,
    text: joinText(texts),
    systemText,
    lastUserText,
    tools,
    ...history.answered(),
  };
}

function contentBlock(reply: ScriptedReply): Record<string, unknown> {
  if (reply.kind === 'tool') {
    return { type: 'tool_use', id: reply.callId, name: reply.tool.name, input: reply.input };
  }
  return { type: 'text', text: reply.text };
}

function usage(request: ParsedModelRequest, outputTokens: number): Record<string, number> {
  return {
    input_tokens: countTokens(request.text),
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function outputTokens(reply: ScriptedReply): number {
  return countTokens(reply.kind === 'tool' ? JSON.stringify(reply.input) : reply.text);
}

/** The deltas of one content block, as `content_block_delta` payloads. */
function blockDeltas(reply: ScriptedReply): Record<string, unknown>[] {
  if (reply.kind === 'tool') {
    return splitArguments(reply.input).map((partial_json) => ({
      type: 'input_json_delta',
      partial_json,
    }));
  }
  return splitIntoDeltas(reply.text).map((text) => ({ type: 'text_delta', text }));
}

interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Record<string, unknown>[];
  stop_reason: 'tool_use' | 'end_turn';
  stop_sequence: null;
  usage: Record<string, number>;
}

/** The full Messages event sequence for one content block. */
function streamMessage(res: ServerResponse, message: AnthropicMessage, reply: ScriptedReply): void {
  const { content, stop_reason, usage: finalUsage, ...head } = message;
  openEventStream(res);
  writeEvent(res, 'message_start', {
    type: 'message_start',
    message: {
      ...head,
      content: [],
      stop_reason: null,
      usage: { ...finalUsage, output_tokens: 1 },
    },
  });
  writeEvent(res, 'ping', { type: 'ping' });
  // A tool_use block starts with an empty input; the JSON arrives in deltas.
  const first = content[0] ?? {};
  const start = reply.kind === 'tool' ? { ...first, input: {} } : { type: 'text', text: '' };
  writeEvent(res, 'content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: start,
  });
  for (const delta of blockDeltas(reply)) {
    writeEvent(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta });
  }
  writeEvent(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  writeEvent(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens: finalUsage.output_tokens },
  });
  writeEvent(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function writeAnthropicMessages({ res, request, reply, nextId }: WireAnswer): void {
  const message: AnthropicMessage = {
    id: nextId('msg_'),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: [contentBlock(reply)],
    stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: usage(request, outputTokens(reply)),
  };
  if (request.stream) streamMessage(res, message, reply);
  else sendJson(res, 200, message);
}

export const anthropicMessages: WireFormat = {
  api: 'anthropic-messages',
  callIdPrefix: 'toolu_',
  parse: parseAnthropicMessages,
  write: writeAnthropicMessages,
  errorBody: (type, message) => ({ type: 'error', error: { type, message } }),
};
