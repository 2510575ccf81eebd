import { FINAL_ANSWER_CHARS } from '@cairn/core';

/**
 * The agent's final answer for the run digest, from the `messages` of
 * OpenClaw's agent_end event (its text-model messages: `user`,
 * `assistant`, `toolResult`): the text of the last assistant message when
 * no prompt came after it; null when the last prompt, or a last message of
 * tool calls, has no text after it; undefined when the messages name no
 * prompt. A user message that carries OpenClaw's runtime context is not a prompt.
 */

interface Message {
  role?: unknown;
  content?: unknown;
  runtimeContextCarrier?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n')
    .trim();
}

export function finalAnswerOf(messages: readonly unknown[]): string | null | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message | null;
    if (typeof message !== 'object' || message === null) continue;
    if (message.role === 'assistant') {
      const text = textOf(message.content);
      return text ? text.slice(0, FINAL_ANSWER_CHARS) : null;
    }
    if (
      message.role === 'user' &&
      message.runtimeContextCarrier !== true &&
      textOf(message.content)
    )
      return null;
  }
  return undefined;
}
