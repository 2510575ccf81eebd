import type { ParsedModelRequest } from './model-server-types';

/** What the scripted model answers to a compaction request when the script sets nothing. */
export const DEFAULT_COMPACTION_SUMMARY =
  'Summary of the conversation so far: the user asked for a task, the assistant worked on it, and nothing is pending.';

/**
 * Phrases the four harnesses put in their compaction system prompt (checked
 * in the shipped binaries/bundles of Claude Code 2.1.330, OpenCode 1.18.33 and
 * OpenClaw 2026.9.6). Claude Code can also reuse the main system prompt for
 * compaction, so the user-side markers below matter as much.
 */
const SYSTEM_MARKERS = [
  // Claude Code
  'You are a helpful AI assistant tasked with summarizing conversations',
  // OpenCode (compaction agent)
  'You are a context summarization agent',
  // OpenClaw (pi coding agent)
  'You are a context summarization assistant',
];

/** Phrases of the compaction prompt each harness sends as the last user message. */
const USER_MARKERS = [
  // Claude Code: "Your task is to create a detailed summary of the conversation so far…"
  'Your task is to create a detailed summary of',
  // Codex (local compaction for custom providers)
  'CONTEXT CHECKPOINT COMPACTION',
  // OpenCode: first and follow-up compaction
  'Create a new anchored summary',
  'Construct a new summary that combines both',
  '<prior-summary>',
  // OpenClaw: first and follow-up compaction, and the prefix of a split turn
  'The messages above are a conversation to summarize',
  'The messages above are NEW conversation messages to incorporate into the existing summary',
  'This is the PREFIX of a turn that was too large to keep',
];

/** Every known marker, system and user side, for tests that build their own prompts. */
export const COMPACTION_PROMPT_MARKERS: readonly string[] = [...SYSTEM_MARKERS, ...USER_MARKERS];

/** Any other client that plainly asks for a summary of the conversation. */
const GENERIC_REQUEST =
  /\b(?:summari[sz]e|create (?:a|an) (?:\w+ ){0,3}summary of) (?:the|this|our) (?:\w+ ){0,2}conversation\b/i;

function containsAny(haystack: string, needles: readonly string[]): boolean {
  const lower = haystack.toLowerCase();
  return needles.some((needle) => lower.includes(needle.toLowerCase()));
}

/**
 * Whether a request asks the model to compact (summarise) the conversation.
 * Only the system side and the last user message are read: after compaction
 * the summary itself travels in later requests, and must not make them look
 * like compaction requests again.
 */
export function isCompactionRequest(
  request: Pick<ParsedModelRequest, 'systemText' | 'lastUserText'>,
): boolean {
  if (containsAny(request.systemText, SYSTEM_MARKERS)) return true;
  if (containsAny(request.lastUserText, USER_MARKERS)) return true;
  return GENERIC_REQUEST.test(request.lastUserText);
}
