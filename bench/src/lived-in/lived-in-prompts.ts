import { createRandom } from '../scale/text-generator';

/** Words of unit openers and glue: too common to make a unit-answered prompt. */
const STOP = new Set(
  'the and for with from after before that this team agreed decided going forward always never prefer remember note service owner module fixed checked looked'.split(
    ' ',
  ),
);

const pickFrom = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** Prompts of three words taken from unit texts: recall answers them from units. */
export function unitPrompts(unitTexts: readonly string[], count: number, seed: number): string[] {
  const random = createRandom(seed);
  const pools = unitTexts
    .map((text) =>
      (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => w.length >= 4 && !STOP.has(w)),
    )
    .filter((words) => words.length >= 3);
  if (pools.length === 0) return [];
  return Array.from({ length: count }, () => {
    const words = pickFrom(random, pools);
    return Array.from({ length: 3 }, () => pickFrom(random, words)).join(' ');
  });
}

/**
 * Prompts of two transcript-only words the agent met in at least two
 * earlier sessions of its main-branch thread: no unit holds them, so only
 * the transcript can answer.
 */
export function transcriptPrompts(
  sessionsByWord: Record<string, number> | undefined,
  count: number,
  seed: number,
): string[] {
  const random = createRandom(seed);
  const words = Object.entries(sessionsByWord ?? {})
    .filter(([, sessions]) => sessions >= 2)
    .map(([word]) => word)
    .sort();
  if (words.length === 0) return [];
  return Array.from(
    { length: count },
    () => `${pickFrom(random, words)} ${pickFrom(random, words)}`,
  );
}
