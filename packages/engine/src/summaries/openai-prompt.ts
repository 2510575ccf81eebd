import { LIST_LIMIT, type SummaryRequest, type TranscriptLine } from './summary-types';
import { clip, clipBlock } from './text-bounds';

/** One entry never takes more than this, so a pasted log cannot crowd out the rest. */
const ENTRY_MAX_CHARS = 4000;
const PREVIOUS_MAX_CHARS = 8000;

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export function systemPrompt(maxChars: number): string {
  return [
    "You summarize a coding agent's working session for its durable memory.",
    'Reply with one JSON object and nothing else, with these keys:',
    `- "text": a readable markdown summary of at most ${maxChars} characters`,
    '- "status": one line saying where things stand now',
    '- "decisions": decisions already made',
    '- "commitments": what someone promised to do',
    '- "blockers": problems that are still unresolved',
    '- "nextSteps": the next actions',
    '- "files": file paths that matter',
    '- "commands": shell commands that matter',
    `Every list is an array of short strings, at most ${LIST_LIMIT}, oldest first and latest last;`,
    'use [] when there is nothing. Keep what still holds from the previous summary and drop',
    'what the transcript shows is resolved. Do not invent anything that is not in the',
    'transcript or the previous summary.',
  ].join('\n');
}

function formatEntry(entry: TranscriptLine, max: number): string {
  const label = entry.role === 'tool' ? `tool ${entry.toolName ?? ''}`.trim() : entry.role;
  return clipBlock(`[${label}] ${entry.text.trim()}`, max);
}

/**
 * The latest entries that fit in `budget` characters, oldest first. System
 * entries are left out: they are instructions, not the work.
 */
export function boundTranscript(
  transcript: readonly TranscriptLine[],
  budget: number,
): { lines: string[]; omitted: number } {
  const lines: string[] = [];
  let used = 0;
  let considered = 0;
  const entries = transcript.filter((entry) => entry.role !== 'system');
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const line = formatEntry(entries[index]!, Math.min(ENTRY_MAX_CHARS, budget));
    if (used + line.length + 1 > budget && lines.length > 0) break;
    lines.push(line);
    used += line.length + 1;
    considered += 1;
  }
  return { lines: lines.reverse(), omitted: entries.length - considered };
}

export function userPrompt(request: SummaryRequest, budget: number): string {
  const parts: string[] = [];
  if (request.threadKey) parts.push(`Thread: ${clip(request.threadKey)}`);
  if (request.previous?.trim()) {
    parts.push(`Previous summary:\n${clipBlock(request.previous.trim(), PREVIOUS_MAX_CHARS)}`);
  }
  const { lines, omitted } = boundTranscript(request.transcript, budget);
  const heading =
    omitted > 0
      ? `Transcript (the latest ${lines.length} entries; ${omitted} older ones omitted):`
      : 'Transcript:';
  parts.push(`${heading}\n${lines.length > 0 ? lines.join('\n') : '(empty)'}`);
  parts.push('Reply with the JSON object now.');
  return parts.join('\n\n');
}

export function chatMessages(
  request: SummaryRequest & { maxChars: number },
  budget: number,
): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt(request.maxChars) },
    { role: 'user', content: userPrompt(request, budget) },
  ];
}
