import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

/** bench/fixtures/failures/: the outputs, `labels.jsonl` (captured here) and `modelled.jsonl` (Go, modelled on public logs' formats). */
export const FAILURES_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/failures',
);
export const LABEL_FILES = ['labels.jsonl', 'modelled.jsonl'] as const;

const labelSchema = z.object({
  file: z.string().min(1),
  ecosystem: z.string().min(1),
  case: z.string().min(1),
  fix: z.string().min(1),
  tool: z.string().min(1),
  command: z.string().min(1),
  exitCode: z.number().int().optional(),
  source: z.string().min(1),
  /** Kept out of any tuning of the rules: reported apart. */
  heldOut: z.boolean().optional(),
  /** The kind of test failure, for the cases beyond the first seven scenarios (reported apart). */
  kind: z.string().min(1).optional(),
});
export type FailureLabel = z.infer<typeof labelSchema>;

/** One labelled failure output, read from the fixtures. */
export interface FailureFixture extends FailureLabel {
  text: string;
  /**
   * What makes two outputs "the same fix": the fix id under the tool that
   * failed. Cairn learns a fix per command family, so
   * one fix id under npm and under pnpm is two fixes.
   */
  fixKey: string;
}

export function parseLabels(text: string, source: string): FailureLabel[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const parsed = labelSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${source}:${index + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/** Every labelled output; a label whose file is missing is an error (the corpus is checked in). */
export async function loadFailureCorpus(dir = FAILURES_DIR): Promise<FailureFixture[]> {
  const fixtures: FailureFixture[] = [];
  for (const name of LABEL_FILES) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    for (const label of parseLabels(text, name)) {
      const output = await readFile(join(dir, label.file), 'utf8');
      fixtures.push({ ...label, text: output, fixKey: `${label.tool} ${label.fix}` });
    }
  }
  return fixtures;
}
