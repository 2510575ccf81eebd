import { FINAL_ANSWER_CHARS } from '@cairn/core';
import { jsonLinesFromEnd, readFileTail } from '@cairn/harness-kit';

/**
 * The agent's final answer in a Claude Code transcript (`transcript_path`,
 * JSONL), for the run digest: the text of the last `assistant` entry when
 * no prompt came after it, `null` when the last prompt (or tool call) has
 * no answer after it, undefined when the transcript cannot be read or says
 * neither (the outcome is then `unknown`). Tool results come back as `user`
 * entries whose content is `tool_result` parts: they are not prompts, and
 * neither are `isMeta` entries or a compaction's summary.
 */

/** The answer is at the end; SessionEnd hooks are killed after about 1.5 s. */
const ANSWER_TAIL_BYTES = 4 * 1024 * 1024;
/** The cheap test before a line is parsed: a user or assistant entry. */
const ENTRY_TYPE = /"type"\s*:\s*"(?:user|assistant)"/;

interface Entry {
  type?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  message?: { content?: unknown };
}

type Part = { type?: unknown; text?: unknown };
const parts = (content: unknown): Part[] => (Array.isArray(content) ? (content as Part[]) : []);

/** What one entry says of the final answer, read from the end; undefined: read on. */
function entryAnswer(entry: Entry): { answer: string | null } | undefined {
  const content = entry.message?.content;
  if (entry.type === 'assistant') {
    const text = parts(content)
      .filter((part) => part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n')
      .trim();
    // An assistant turn that ends on a tool call or a thought has no answer.
    return { answer: text ? text.slice(0, FINAL_ANSWER_CHARS) : null };
  }
  if (entry.type !== 'user' || entry.isMeta === true || entry.isCompactSummary === true)
    return undefined;
  const prompt =
    (typeof content === 'string' && content.trim() !== '') ||
    parts(content).some((part) => part.type === 'text');
  return prompt ? { answer: null } : undefined;
}

export async function readTranscriptFinalAnswer(
  transcriptPath: string | null | undefined,
): Promise<string | null | undefined> {
  if (!transcriptPath) return undefined;
  const text = await readFileTail(transcriptPath, ANSWER_TAIL_BYTES);
  if (text === undefined) return undefined;
  // Claude Code writes compact JSON; a line written another way (spaces around the colon) says the same.
  for (const value of jsonLinesFromEnd(text, (line) => ENTRY_TYPE.test(line))) {
    if (typeof value !== 'object' || value === null) continue;
    const found = entryAnswer(value as Entry);
    if (found) return found.answer;
  }
  return undefined;
}
