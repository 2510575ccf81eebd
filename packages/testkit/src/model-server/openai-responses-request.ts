import type { OfferedTool, ParsedModelRequest } from './model-server-types';
import { asArray, asString, contentText, isObject, joinText } from './prompt-text';
import { ToolHistory } from './tool-history';

/**
 * The name a namespaced tool goes by outside the Responses API: Codex offers
 * MCP tools as namespace `mcp__<server>` holding `<tool>`, and its hooks see
 * `mcp__<server>__<tool>`.
 */
export function namespacedName(namespace: string, name: string): string {
  return namespace.endsWith('_') ? `${namespace}${name}` : `${namespace}__${name}`;
}

function callNames(name: unknown, namespace: unknown): string[] {
  const bare = asString(name);
  if (!bare) return [];
  const ns = asString(namespace);
  return ns ? [bare, namespacedName(ns, bare)] : [bare];
}

/** Function and custom tools, plus every function inside a `namespace` tool. */
function offeredTools(tools: unknown): OfferedTool[] {
  const offered: OfferedTool[] = [];
  for (const tool of asArray(tools).filter(isObject)) {
    const name = asString(tool.name);
    if (!name) continue;
    if (tool.type === 'namespace') {
      for (const inner of asArray(tool.tools).filter(isObject)) {
        const innerName = asString(inner.name);
        if (!innerName) continue;
        offered.push({
          name: innerName,
          namespace: name,
          matchNames: callNames(innerName, name),
        });
      }
    } else if (tool.type === 'function' || tool.type === 'custom') {
      offered.push({ name, matchNames: [name] });
    }
  }
  return offered;
}

const SYSTEM_ROLES = new Set(['system', 'developer']);
const CALL_TYPES = new Set(['function_call', 'custom_tool_call']);
const RESULT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

/** Reads `POST /v1/responses` bodies. */
export function parseOpenAiResponses(body: unknown): ParsedModelRequest | string {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) {
    return '`input` must be a string or an array';
  }
  const history = new ToolHistory();
  const instructions = asString(body.instructions) ?? '';
  const texts: string[] = [instructions];
  const systemTexts: string[] = [instructions];
  let lastUserText = typeof body.input === 'string' ? body.input : '';
  texts.push(lastUserText);
  for (const item of asArray(body.input).filter(isObject)) {
    const type = asString(item.type) ?? 'message';
    if (type === 'message') {
      const text = contentText(item.content);
      texts.push(text);
      if (SYSTEM_ROLES.has(String(item.role))) systemTexts.push(text);
      if (item.role === 'user') lastUserText = text;
    } else if (CALL_TYPES.has(type)) {
      history.noteCall(item.call_id, callNames(item.name, item.namespace));
    } else if (RESULT_TYPES.has(type)) {
      history.noteResult(item.call_id);
      texts.push(contentText(item.output));
    }
  }
  return {
    model: asString(body.model) ?? 'scripted-model',
    // The Responses API streams only when asked; Codex always asks.
    stream: body.stream === true,
    text: joinText(texts),
    systemText: joinText(systemTexts),
    lastUserText,
    tools: offeredTools(body.tools),
    ...history.answered(),
  };
}
