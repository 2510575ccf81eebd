import { FINAL_ANSWER_CHARS } from '@cairn/core';
import { jsonLinesFromEnd, readFileTail } from '@cairn/harness-kit';

/**
 * The agent's final answer in a Codex rollout file (`transcript_path`), for
 * the run digest: the text of the last assistant message when no prompt
 * came after it, `null` when the last prompt has no answer after it, and
 * undefined when the rollout cannot be read or says neither (the digest's
 * outcome is then `unknown`). Codex 0.169 writes an assistant message as a
 * `response_item` of role `assistant` (older versions as an `agent_message`
 * event) and ends a turn with `task_complete` and its `last_agent_message`;
 * a prompt is an `item_completed` `UserMessage` (a `user_message` event
 * before). `response_item`s of role `user` also carry Codex's own context
 * (`<environment_context>`): they are not prompts.
 */

/** The answer is at the end: the last few MiB are enough, and a SessionEnd hook has 3 s. */
const ANSWER_TAIL_BYTES = 4 * 1024 * 1024;

type Found = { answer: string | null } | undefined;

const texts = (content: unknown, type: string): string =>
  Array.isArray(content)
    ? content
        .filter((part) => part?.type === type && typeof part.text === 'string')
        .map((part) => part.text as string)
        .join('\n')
    : '';

const clip = (text: string): Found => {
  const trimmed = text.trim();
  return trimmed ? { answer: trimmed.slice(0, FINAL_ANSWER_CHARS) } : undefined;
};

/** What one rollout line says of the final answer, read from the end. */
function lineAnswer(line: { type?: unknown; payload?: Record<string, unknown> }): Found {
  const payload = line.payload ?? {};
  if (line.type === 'response_item' && payload.type === 'message' && payload.role === 'assistant')
    return clip(texts(payload.content, 'output_text'));
  if (line.type !== 'event_msg') return undefined;
  if (payload.type === 'task_complete' && typeof payload.last_agent_message === 'string')
    return clip(payload.last_agent_message);
  if (payload.type === 'agent_message' && typeof payload.message === 'string')
    return clip(payload.message);
  if (payload.type === 'user_message') return { answer: null };
  const item = payload.item as { type?: unknown } | undefined;
  if (payload.type === 'item_completed' && item?.type === 'UserMessage') return { answer: null };
  return undefined;
}

export async function readRolloutFinalAnswer(
  transcriptPath: string | null | undefined,
): Promise<string | null | undefined> {
  if (!transcriptPath) return undefined;
  const text = await readFileTail(transcriptPath, ANSWER_TAIL_BYTES);
  if (text === undefined) return undefined;
  for (const value of jsonLinesFromEnd(text, (line) =>
    /"(?:response_item|event_msg)"/.test(line),
  )) {
    if (typeof value !== 'object' || value === null) continue;
    const found = lineAnswer(value as Parameters<typeof lineAnswer>[0]);
    if (found) return found.answer;
  }
  return undefined;
}
