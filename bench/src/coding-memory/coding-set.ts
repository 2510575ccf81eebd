import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The coding-memory set (bench/fixtures/coding-memory/README.md): units a
 * team stored and questions asked later in other words, each labelled
 * with the unit that answers it.
 */
const unitSchema = z.object({
  id: z.string().regex(/^u\d+$/),
  kind: z.enum(['decision', 'convention', 'gotcha', 'fact']),
  category: z.enum(['preference', 'fact', 'decision', 'entity', 'other']),
  text: z.string().min(1),
});

export const QUESTION_KINDS = [
  'synonym',
  'abbreviation',
  'identifier',
  'symptom',
  'paraphrase',
] as const;

const questionSchema = z.object({
  question: z.string().min(1),
  unit: z.string(),
  kind: z.enum(QUESTION_KINDS),
  part: z.enum(['tune', 'held-out']),
});

export type CodingUnit = z.infer<typeof unitSchema>;
export type CodingQuestion = z.infer<typeof questionSchema>;
export type QuestionPart = CodingQuestion['part'];

export interface CodingSet {
  units: CodingUnit[];
  questions: CodingQuestion[];
}

async function readLines<T>(file: string, schema: z.ZodType<T>): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const parsed = schema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${index + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/** Reads and checks the set: every question names a unit of the set. */
export async function loadCodingSet(dir: string): Promise<CodingSet> {
  const units = await readLines(join(dir, 'units.jsonl'), unitSchema);
  const questions = await readLines(join(dir, 'questions.jsonl'), questionSchema);
  const ids = new Set(units.map((unit) => unit.id));
  const unknown = questions.filter((question) => !ids.has(question.unit));
  if (unknown.length > 0) {
    throw new Error(
      `questions name units that do not exist: ${unknown.map((q) => q.unit).join(', ')}`,
    );
  }
  return { units, questions };
}
