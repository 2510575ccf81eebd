import type {
  HarnessDelivery,
  HarnessDeliveryContext,
  HarnessDeliveryResult,
  LifecycleApi,
} from '@cairn/core';
import { CairnError, FINAL_ANSWER_CHARS, parseInput } from '@cairn/core';
import {
  chatMessageSchema,
  compactingSchema,
  type MessagePart,
  type SessionMessage,
  sessionCompactedSchema,
  sessionCreatedSchema,
  sessionEventSchema,
  toolExecuteAfterSchema,
} from './hook-payloads';

/** The hook names `deliver` accepts: OpenCode's own, plus `session.resumed` and `dispose` sent by the plugin. */
export const OPENCODE_HOOK_EVENTS = [
  'session.created',
  'session.resumed',
  'chat.message',
  'tool.execute.after',
  'experimental.session.compacting',
  'session.compacted',
  'session.idle',
  'session.deleted',
  'dispose',
] as const;
export type OpencodeHookEvent = (typeof OPENCODE_HOOK_EVENTS)[number];

/**
 * What the plugin adds to OpenCode's hook output: `system` lines for the
 * session's model requests (experimental.chat.system.transform), `context`
 * lines for the compaction prompt (experimental.session.compacting).
 */
export interface OpencodeOutput {
  system?: string[];
  context?: string[];
}

export function agentIdFrom(env: Record<string, string | undefined>): string {
  return env.CAIRN_AGENT_ID?.trim() || 'opencode';
}

/** The user's words: text parts OpenCode did not synthesize (file contents, reminders). */
export function promptText(parts: MessagePart[]): string {
  const texts = (own: boolean) =>
    parts.filter((p) => p.type === 'text' && p.text && (!own || !p.synthetic)).map((p) => p.text);
  const own = texts(true);
  return (own.length > 0 ? own : texts(false)).join('\n');
}

/** Native tools answer `{title, output, metadata}`; MCP tools an MCP result with text `content`. */
export function toolOutputText(output: unknown): unknown {
  if (typeof output !== 'object' || output === null) return output;
  const value = output as { output?: unknown; content?: unknown };
  if (typeof value.output === 'string') return value.output;
  if (Array.isArray(value.content)) {
    const texts = value.content
      .map((item) => (item as { text?: unknown }).text)
      .filter((text): text is string => typeof text === 'string');
    if (texts.length > 0) return texts.join('\n');
  }
  return output;
}

/** The compaction summary: the text of the latest assistant message flagged `summary: true`. */
export function compactionSummary(messages: SessionMessage[]): string | undefined {
  const summary = messages.findLast((m) => m.info.role === 'assistant' && m.info.summary === true);
  const text = summary ? promptText(summary.parts).trim() : '';
  return text || undefined;
}

/**
 * The agent's final answer for the run digest: the text of the last
 * assistant message (compaction summaries aside) when no prompt came after
 * it; null when the last prompt, or a last message of tool calls only, has
 * no text after it; undefined when the messages name no prompt.
 */
export function finalAnswer(messages: SessionMessage[]): string | null | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const { info, parts } = messages[index]!;
    if (info.role === 'assistant') {
      if (info.summary === true) continue;
      const text = promptText(parts).trim();
      return text ? text.slice(0, FINAL_ANSWER_CHARS) : null;
    }
    // A user message of a compaction part only is OpenCode's, not a prompt.
    if (info.role === 'user' && parts.some((part) => part.type === 'text')) return null;
  }
  return undefined;
}

const lines = (inject: string): string[] => (inject ? [inject] : []);

type Handler = (
  payload: unknown,
  lifecycle: LifecycleApi,
  agentId: string,
) => Promise<Omit<HarnessDeliveryResult, 'agentId'>>;

const what = (hook: string) => `OpenCode ${hook} payload`;

async function sessionStart(payload: unknown, lifecycle: LifecycleApi, agentId: string) {
  const event = parseInput(sessionCreatedSchema, payload, what('session.created'));
  const { info } = event.properties;
  const source =
    event.type === 'session.resumed' ? 'resume' : info.parentID ? 'subagent' : 'startup';
  const result = await lifecycle.sessionStart({
    agentId,
    sessionKey: info.id,
    harness: 'opencode',
    cwd: info.directory,
    source,
  });
  const output: OpencodeOutput = { system: lines(result.inject) };
  return { sessionKey: info.id, output, calls: ['session-start'] };
}

async function promptSubmit(payload: unknown, lifecycle: LifecycleApi, agentId: string) {
  const { input, output } = parseInput(chatMessageSchema, payload, what('chat.message'));
  const result = await lifecycle.userPromptSubmit({
    agentId,
    sessionKey: input.sessionID,
    prompt: promptText(output.parts),
  });
  const reply: OpencodeOutput = { system: lines(result.inject) };
  return { sessionKey: input.sessionID, output: reply, calls: ['user-prompt-submit'] };
}

async function toolUse(payload: unknown, lifecycle: LifecycleApi, agentId: string) {
  const { input, output } = parseInput(toolExecuteAfterSchema, payload, what('tool.execute.after'));
  const result = await lifecycle.toolUse({
    agentId,
    sessionKey: input.sessionID,
    toolName: input.tool,
    input: input.args,
    output: toolOutputText(output),
  });
  // A known fix for the error the tool met: the session's next model request carries it.
  const reply: OpencodeOutput = { system: lines(result.inject) };
  return { sessionKey: input.sessionID, output: reply, calls: ['tool-use'] };
}

async function preCompaction(payload: unknown, lifecycle: LifecycleApi, agentId: string) {
  const { input, output } = parseInput(
    compactingSchema,
    payload,
    what('experimental.session.compacting'),
  );
  const result = await lifecycle.preCompaction({
    agentId,
    sessionKey: input.sessionID,
    trigger: 'compacting',
    ...(output?.prompt ? { customInstructions: output.prompt } : {}),
  });
  const reply: OpencodeOutput = { context: lines(result.inject) };
  return { sessionKey: input.sessionID, output: reply, calls: ['pre-compaction'] };
}

async function compactionComplete(payload: unknown, lifecycle: LifecycleApi, agentId: string) {
  const { event, messages } = parseInput(
    sessionCompactedSchema,
    payload,
    what('session.compacted'),
  );
  const sessionKey = event.properties.sessionID;
  const summary = compactionSummary(messages);
  await lifecycle.compactionComplete({ agentId, sessionKey, ...(summary ? { summary } : {}) });
  return { sessionKey, calls: ['compaction-complete'] };
}

async function sessionEnd(payload: unknown, lifecycle: LifecycleApi, agentId: string) {
  const event = parseInput(sessionEventSchema, payload, what('session end'));
  const sessionKey = event.properties.sessionID ?? event.properties.info?.id;
  if (!sessionKey) {
    throw new CairnError('INVALID_INPUT', `OpenCode ${event.type} event names no session`, {
      hint: 'the event needs properties.sessionID or properties.info.id; nothing was changed',
    });
  }
  const answer = event.messages ? finalAnswer(event.messages) : undefined;
  // The plugin runs inside OpenCode's event loop: the model summary waits
  // for the next session start rather than holding up the agent.
  await lifecycle.sessionEnd({
    agentId,
    sessionKey,
    reason: event.type,
    ...(answer !== undefined ? { finalAnswer: answer } : {}),
    deferSummary: true,
  });
  return { sessionKey, calls: ['session-end'] };
}

const HANDLERS: Record<OpencodeHookEvent, Handler> = {
  'session.created': sessionStart,
  'session.resumed': sessionStart,
  'chat.message': promptSubmit,
  'tool.execute.after': toolUse,
  'experimental.session.compacting': preCompaction,
  'session.compacted': compactionComplete,
  'session.idle': sessionEnd,
  'session.deleted': sessionEnd,
  dispose: sessionEnd,
};

/**
 * Maps one recorded OpenCode hook payload onto the lifecycle. The plugin
 * calls this for every hook it handles, so replaying the fixtures runs the
 * same code as a live session. Invalid payloads throw INVALID_INPUT before
 * anything is written.
 */
export async function deliverOpencode(
  delivery: HarnessDelivery,
  context: HarnessDeliveryContext,
): Promise<HarnessDeliveryResult> {
  const handler = HANDLERS[delivery.hookEvent as OpencodeHookEvent];
  if (!handler) {
    throw new CairnError('INVALID_INPUT', `Unknown OpenCode hook "${delivery.hookEvent}"`, {
      hint: `use one of ${OPENCODE_HOOK_EVENTS.join(', ')}; nothing was changed`,
    });
  }
  const agentId = agentIdFrom(context.env);
  return { agentId, ...(await handler(delivery.payload, context.lifecycle, agentId)) };
}
