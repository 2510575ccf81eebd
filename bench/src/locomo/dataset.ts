import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * The LoCoMo format (snap-research/LoCoMo, data/locomo10.json), as far as
 * the bench reads it. Unknown fields (observations, summaries, image urls)
 * are dropped.
 */
const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const qaSchema = z.object({
  question: z.string(),
  evidence: z.array(z.string()),
  category: z.number().int().min(1).max(5),
});

const conversationSchema = z
  .object({ speaker_a: z.string(), speaker_b: z.string() })
  .catchall(z.union([z.string(), z.array(turnSchema)]));

const sampleSchema = z.object({
  sample_id: z.string(),
  conversation: conversationSchema,
  qa: z.array(qaSchema),
});

export const locomoDatasetSchema = z.array(sampleSchema).min(1);

export type LocomoTurn = z.infer<typeof turnSchema>;

export interface LocomoSession {
  index: number;
  /** As written in the data, e.g. `1:56 pm on 8 May, 2023`. */
  dateText: string;
  /** Parsed from dateText; undefined when it does not parse. */
  date: Date | undefined;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  category: number;
  /** Normalized dia_ids; empty when the data gives none usable. */
  evidence: string[];
}

export interface LocomoConversation {
  id: string;
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  /** Evidence entries that were not a dia_id and were dropped (data noise). */
  droppedEvidence: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SESSION_DATE = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i;

/** `1:56 pm on 8 May, 2023` as a UTC instant; undefined when the text has another shape. */
export function parseSessionDate(text: string): Date | undefined {
  const match = SESSION_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, hourText, minute, meridiem, day, monthName, year] = match;
  const month = MONTHS.indexOf(monthName!.slice(0, 3).toLowerCase());
  const hour = (Number(hourText) % 12) + (meridiem!.toLowerCase() === 'pm' ? 12 : 0);
  if (month === -1 || hour > 23) return undefined;
  const date = new Date(Date.UTC(Number(year), month, Number(day), hour, Number(minute)));
  return date.getUTCDate() === Number(day) ? date : undefined;
}

/**
 * Evidence as clean dia_ids. The data has a few slips (`D8:6; D9:17` in one
 * entry, `D:11:26`, a bare `D`): split, repair the obvious, drop the rest.
 */
export function normalizeEvidence(entries: readonly string[]): { ids: string[]; dropped: number } {
  const ids = new Set<string>();
  let dropped = 0;
  for (const piece of entries.flatMap((entry) => entry.split(/[;,\s]+/)).filter(Boolean)) {
    const match = /^D:?(\d+):(\d+)$/.exec(piece);
    if (match) ids.add(`D${match[1]}:${match[2]}`);
    else dropped += 1;
  }
  return { ids: [...ids], dropped };
}

function sessionsOf(conversation: z.infer<typeof conversationSchema>): LocomoSession[] {
  const sessions: LocomoSession[] = [];
  for (const [key, value] of Object.entries(conversation)) {
    const match = /^session_(\d+)$/.exec(key);
    if (!match || !Array.isArray(value)) continue;
    const dateValue = conversation[`${key}_date_time`];
    const dateText = typeof dateValue === 'string' ? dateValue : '';
    sessions.push({
      index: Number(match[1]),
      dateText,
      date: parseSessionDate(dateText),
      turns: value,
    });
  }
  return sessions.sort((a, b) => a.index - b.index);
}

export function toConversation(sample: z.infer<typeof sampleSchema>): LocomoConversation {
  let droppedEvidence = 0;
  const questions = sample.qa.map((qa) => {
    const { ids, dropped } = normalizeEvidence(qa.evidence);
    droppedEvidence += dropped;
    return { question: qa.question, category: qa.category, evidence: ids };
  });
  return {
    id: sample.sample_id,
    sessions: sessionsOf(sample.conversation),
    questions,
    droppedEvidence,
  };
}

/** Reads and validates the dataset; a file of another shape fails with the first zod issue. */
export async function loadLocomo(path: string): Promise<LocomoConversation[]> {
  const text = await readFile(path, 'utf8');
  const parsed = locomoDatasetSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(root)';
    throw new Error(
      `${path} is not in the LoCoMo format: ${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data.map(toConversation);
}
