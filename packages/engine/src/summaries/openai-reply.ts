import { lazySchema } from '@cairn/core';
import * as z from 'zod/mini';
import { renderSummaryMarkdown } from './render-summary';
import { type StructuredSummary, SUMMARY_LIST_KEYS, type SummaryLists } from './summary-types';
import { boundList, clip, clipBlock, pathKey } from './text-bounds';

/** The part of an OpenAI chat completion Cairn reads. */
export const chatCompletionSchema = lazySchema(() =>
  z.object({
    choices: z
      .array(z.object({ message: z.object({ content: z.nullish(z.string()) }) }))
      .check(z.minLength(1)),
  }),
);

function listItem(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (value && typeof value === 'object') {
    const text = Object.values(value).find((field) => typeof field === 'string');
    return typeof text === 'string' ? [text] : [];
  }
  return [];
}

/** Models return a string where a list was asked for, or objects; take what reads as text. */
const listField = lazySchema(() =>
  z.pipe(
    z.optional(z.unknown()),
    z.transform((value): string[] => {
      if (Array.isArray(value)) return value.flatMap(listItem);
      return typeof value === 'string' && value.trim() ? [value] : [];
    }),
  ),
);

const modelSummarySchema = lazySchema(() =>
  z.object({
    text: z.catch(z.optional(z.string()), undefined),
    status: z.catch(z.nullish(z.string()), undefined),
    decisions: listField,
    commitments: listField,
    blockers: listField,
    nextSteps: listField,
    next_steps: listField,
    files: listField,
    commands: listField,
  }),
);

/** Reasoning models (qwen3, deepseek-r1 on Ollama) put their thinking in the content. */
function withoutThinking(content: string): string {
  return content.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}

/** The JSON inside a reply: a ```json fence, else the outermost braces. */
function jsonCandidate(visible: string): string {
  const fenced = /```(?:json|JSON)?[^\S\n]*\n([\s\S]*?)\n?```/.exec(visible);
  if (fenced) return fenced[1]!.trim();
  const start = visible.indexOf('{');
  const end = visible.lastIndexOf('}');
  return start >= 0 && end > start ? visible.slice(start, end + 1) : visible;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function emptyLists(): SummaryLists {
  return { decisions: [], commitments: [], blockers: [], nextSteps: [], files: [], commands: [] };
}

/**
 * A model's reply as a StructuredSummary. Content that is not a JSON object
 * with at least one of the expected fields is kept as `text` with empty
 * lists: a model that ignores the format still wrote a summary worth keeping.
 */
export function summaryFromContent(
  content: string,
  maxChars: number,
  source: string,
): StructuredSummary {
  const visible = withoutThinking(content);
  const parsed = modelSummarySchema.safeParse(parseJson(jsonCandidate(visible)));
  if (!parsed.success) return { text: clipBlock(visible, maxChars), ...emptyLists(), source };
  const reply = parsed.data;
  const lists = emptyLists();
  for (const key of SUMMARY_LIST_KEYS) {
    const raw = key === 'nextSteps' ? [...reply.nextSteps, ...reply.next_steps] : reply[key];
    lists[key] = boundList(raw, key === 'files' ? pathKey : undefined);
  }
  const status = reply.status?.trim() ? clip(reply.status) : undefined;
  const hasLists = SUMMARY_LIST_KEYS.some((key) => lists[key].length > 0);
  if (!reply.text?.trim() && !status && !hasLists) {
    return { text: clipBlock(visible, maxChars), ...emptyLists(), source };
  }
  const structured = status ? { status, ...lists } : lists;
  const text = reply.text?.trim()
    ? clipBlock(reply.text.trim(), maxChars)
    : renderSummaryMarkdown(structured, maxChars);
  return { text, ...structured, source };
}
