import { randomBytes } from 'node:crypto';
import { CairnError } from '@cairn/core';
import { DEFAULT_COMPACTION_SUMMARY, isCompactionRequest } from './compaction-request';
import type {
  ModelServerScript,
  OfferedTool,
  ParsedModelRequest,
  RecordedModelRequest,
  ScriptedReply,
  ToolCallRule,
} from './model-server-types';
import { isObject } from './prompt-text';

export const DEFAULT_TEXT = 'OK.';

function invalidScript(reason: string): CairnError {
  return new CairnError('INVALID_INPUT', `Invalid model server script: ${reason}`, {
    hint: 'pass { text?: string | (request) => string, toolCalls?: { tool: RegExp, input: object }[], compactionSummary?: string }',
    details: { reason },
  });
}

/** Checks a script before the server starts, so a typo fails the test at once. */
export function validateScript(script: unknown): ModelServerScript {
  if (script === undefined) return {};
  if (!isObject(script)) throw invalidScript('the script must be an object');
  const { text, toolCalls, compactionSummary } = script;
  if (text !== undefined && typeof text !== 'string' && typeof text !== 'function') {
    throw invalidScript('text must be a string or a function');
  }
  if (compactionSummary !== undefined && typeof compactionSummary !== 'string') {
    throw invalidScript('compactionSummary must be a string');
  }
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) throw invalidScript('toolCalls must be an array');
    toolCalls.forEach((rule: unknown, index) => {
      if (!isObject(rule) || !(rule.tool instanceof RegExp)) {
        throw invalidScript(`toolCalls[${index}].tool must be a RegExp`);
      }
      if (!isObject(rule.input)) throw invalidScript(`toolCalls[${index}].input must be an object`);
      const after = rule.afterResults;
      if (after !== undefined && !(Number.isInteger(after) && (after as number) >= 0)) {
        throw invalidScript(`toolCalls[${index}].afterResults must be a whole number >= 0`);
      }
    });
  }
  return script as ModelServerScript;
}

/**
 * Tool-call ids: unique across calls and servers (a counter plus random
 * bytes), with the prefix each API's own ids use.
 */
export function createIdSource(): (prefix: string) => string {
  const salt = randomBytes(4).toString('hex');
  let counter = 0;
  return (prefix) => {
    counter += 1;
    return `${prefix}${salt}${counter.toString().padStart(4, '0')}`;
  };
}

function testName(pattern: RegExp, name: string): boolean {
  pattern.lastIndex = 0; // a /g or /y pattern keeps state between calls
  return pattern.test(name);
}

/** Whether a call of `tool` already got a result earlier in the conversation. */
function isAnswered(
  tool: OfferedTool,
  request: ParsedModelRequest,
  issuedCalls: ReadonlyMap<string, string[]>,
): boolean {
  if (tool.matchNames.some((name) => request.answeredToolNames.has(name))) return true;
  for (const callId of request.answeredCallIds) {
    const names = issuedCalls.get(callId);
    if (names?.some((name) => tool.matchNames.includes(name))) return true;
  }
  return false;
}

function findToolRule(
  rules: readonly ToolCallRule[],
  request: ParsedModelRequest,
  issuedCalls: ReadonlyMap<string, string[]>,
): { rule: ToolCallRule; tool: OfferedTool } | undefined {
  for (const rule of rules) {
    const tool = request.tools.find(
      (offered) =>
        offered.matchNames.some((name) => testName(rule.tool, name)) &&
        (rule.afterResults === undefined
          ? !isAnswered(offered, request, issuedCalls)
          : request.answeredCallIds.size === rule.afterResults),
    );
    if (tool) return { rule, tool };
  }
  return undefined;
}

export interface ReplyContext {
  script: ModelServerScript;
  /** Calls this server made, by id: lets a bare tool result count as an answer. */
  issuedCalls: Map<string, string[]>;
  nextId: (prefix: string) => string;
  /** Id prefix of the API's tool calls (`toolu_`, `call_`). */
  callIdPrefix: string;
}

/**
 * The scripting rules, in order: (a) a compaction request gets the summary;
 * (b) the first rule matching an offered, not yet answered tool gets a call
 * of that tool; (c) anything else gets the scripted text.
 */
export function decideReply(
  parsed: ParsedModelRequest,
  recorded: RecordedModelRequest,
  context: ReplyContext,
): ScriptedReply {
  const { script } = context;
  if (isCompactionRequest(parsed)) {
    return { kind: 'text', text: script.compactionSummary ?? DEFAULT_COMPACTION_SUMMARY };
  }
  const match = findToolRule(script.toolCalls ?? [], parsed, context.issuedCalls);
  if (match) {
    const callId = context.nextId(context.callIdPrefix);
    context.issuedCalls.set(callId, match.tool.matchNames);
    return { kind: 'tool', tool: match.tool, input: match.rule.input, callId };
  }
  const text = typeof script.text === 'function' ? script.text(recorded) : script.text;
  return { kind: 'text', text: text ?? DEFAULT_TEXT };
}
