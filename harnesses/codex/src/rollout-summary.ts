import { readFileTail } from '@cairn/harness-kit';
import * as z from 'zod/mini';

/**
 * Codex's PostCompact hook carries no summary. The summary is in the
 * session's rollout file (`transcript_path`): compaction appends a
 * `{"type":"compacted","payload":{"message": ...}}` line whose message is
 * Codex's hand-off preamble followed by the model's summary. A rollout
 * that is missing, unreadable or damaged means "no summary", never an error:
 * the engine then summarizes from its own transcript.
 */

/** Only the tail is read: compaction lines are appended, and rollouts grow large. */
const MAX_TAIL_BYTES = 32 * 1024 * 1024;

const compactedLine = z.object({
  type: z.literal('compacted'),
  payload: z.object({ message: z.string() }),
});

/** Codex 0.169 puts this preamble before the summary; the summary follows its first ":\n". */
const PREAMBLE_MARKER = 'Here is the summary produced by the other language model';

export function summaryFromCompactedMessage(message: string): string | undefined {
  let text = message;
  const marker = text.indexOf(PREAMBLE_MARKER);
  if (marker >= 0) {
    const end = text.indexOf(':\n', marker);
    text = end >= 0 ? text.slice(end + 2) : '';
  }
  text = text.trim();
  return text ? text : undefined;
}

/** The summary of the last compaction recorded in a Codex rollout file, if any. */
export async function readRolloutSummary(
  transcriptPath: string | null | undefined,
): Promise<string | undefined> {
  if (!transcriptPath) return undefined;
  const text = await readFileTail(transcriptPath, MAX_TAIL_BYTES);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index]!;
    if (!line.includes('"compacted"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = compactedLine.safeParse(value);
    if (!parsed.success) continue;
    return summaryFromCompactedMessage(parsed.data.payload.message);
  }
  return undefined;
}
