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
  OfferedTool,
  ParsedModelRequest,
  ScriptedReply,
  WireAnswer,
  WireFormat,
} from './model-server-types';
import { asArray, asString, contentText, isObject, joinText } from './prompt-text';
import { ToolHistory } from './tool-history';

const SYSTEM_ROLES = new Set(['system', 'developer']);

function offeredTools(body: Record<string, unknown>): OfferedTool[] {
  const names = [
    ...asArray(body.tools)
      .filter(isObject)
      .map((tool) => (isObject(tool.function) ? asString(tool.function.name) : undefined)),
    // The pre-tools `functions` field, still accepted by OpenAI-compatible servers.
    ...asArray(body.functions)
      .filter(isObject)
      .map((fn) => asString(fn.name)),
  ];
  return names.flatMap((name) => (name ? [{ name, matchNames: [name] }] : []));
}

/** Reads `POST /v1/chat/completions` bodies. */
export function parseOpenAiChat(body: unknown): ParsedModelRequest | string {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (!Array.isArray(body.messages)) return '`messages` must be an array';
  const history = new ToolHistory();
  const texts: string[] = [];
  const systemTexts: string[] = [];
  let lastUserText = '';
  for (const message of body.messages) {
    if (!isObject(message)) continue;
    const text = contentText(message.content);
    texts.push(text);
    if (SYSTEM_ROLES.has(String(message.role))) systemTexts.push(text);
    if (message.role === 'user') lastUserText = text;
    if (message.role === 'tool') history.noteResult(message.tool_call_id);
    for (const call of asArray(message.tool_calls).filter(isObject)) {
      const name = isObject(call.function) ? asString(call.function.name) : undefined;
      history.noteCall(call.id, name ? [name] : []);
    }
  }
  const streamOptions = isObject(body.stream_options) ? body.stream_options : {};
  return {
    model: asString(body.model) ?? 'scripted-model',
    stream: body.stream === true,
    includeUsage: streamOptions.include_usage === true,
    text: joinText(texts),
    systemText: joinText(systemTexts),
    lastUserText,
    tools: offeredTools(body),
    ...history.answered(),
  };
}

function usage(request: ParsedModelRequest, reply: ScriptedReply): Record<string, number> {
  const prompt_tokens = countTokens(request.text);
  const completion_tokens = countTokens(
    reply.kind === 'tool' ? JSON.stringify(reply.input) : reply.text,
  );
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function finishReason(reply: ScriptedReply): 'tool_calls' | 'stop' {
  return reply.kind === 'tool' ? 'tool_calls' : 'stop';
}

/** The `delta` objects of a streamed answer, first to last (before the finish chunk). */
function streamDeltas(reply: ScriptedReply): Record<string, unknown>[] {
  if (reply.kind === 'text') {
    return [
      { role: 'assistant', content: '' },
      ...splitIntoDeltas(reply.text).map((content) => ({ content })),
    ];
  }
  const head = {
    index: 0,
    id: reply.callId,
    type: 'function',
    function: { name: reply.tool.name, arguments: '' },
  };
  return [
    { role: 'assistant', content: null, tool_calls: [head] },
    ...splitArguments(reply.input).map((args) => ({
      tool_calls: [{ index: 0, function: { arguments: args } }],
    })),
  ];
}

function writeOpenAiChat({ res, request, reply, nextId }: WireAnswer): void {
  const head = { id: nextId('chatcmpl-'), created: unixSeconds(), model: request.model };
  if (!request.stream) {
    const message =
      reply.kind === 'tool'
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: reply.callId,
                type: 'function',
                function: { name: reply.tool.name, arguments: JSON.stringify(reply.input) },
              },
            ],
          }
        : { role: 'assistant', content: reply.text };
    sendJson(res, 200, {
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
      usage: usage(request, reply),
    });
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    ...head,
    object: 'chat.completion.chunk',
    choices,
    ...extra,
  });
  openEventStream(res);
  for (const delta of streamDeltas(reply)) {
    writeEvent(res, undefined, chunk([{ index: 0, delta, logprobs: null, finish_reason: null }]));
  }
  writeEvent(
    res,
    undefined,
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason(reply) }]),
  );
  if (request.includeUsage) writeEvent(res, undefined, chunk([], { usage: usage(request, reply) }));
  writeEvent(res, undefined, '[DONE]');
  res.end();
}

export const openAiChat: WireFormat = {
  api: 'openai-chat',
  callIdPrefix: 'call_',
  parse: parseOpenAiChat,
  write: writeOpenAiChat,
  errorBody: (type, message) => ({ error: { type, message, param: null, code: null } }),
};
