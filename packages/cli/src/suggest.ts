import { distance } from 'fastest-levenshtein';

/**
 * The name the user most likely meant (`serach` → `search`, `--lmit` →
 * `limit`), or undefined when none is close: an edit distance of at most a
 * third of the word (two edits, fewer for a word of three letters or
 * less), or the one name it starts.
 * Loaded on the error path only; the hook and search bundles never call it
 * for a well-formed command line.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  if (!word) return undefined;
  const lower = word.toLowerCase();
  let best: { name: string; cost: number } | undefined;
  for (const name of names) {
    const cost = distance(lower, name.toLowerCase());
    if (!best || cost < best.cost) best = { name, cost };
  }
  // Two edits (a swapped pair of letters) for a word long enough that two leave some of it.
  const allowed = Math.min(Math.max(2, Math.floor(lower.length / 3)), lower.length - 2);
  if (best && best.cost <= allowed) return best.name;
  const started = names.filter((name) => lower.length >= 3 && name.startsWith(lower));
  return started.length === 1 ? started[0] : undefined;
}

/** `: did you mean "search"?`, or '' when nothing is close. */
export function didYouMean(word: string, names: readonly string[], prefix = ''): string {
  const name = closestName(word, names);
  return name ? `: did you mean "${prefix}${name}"?` : '';
}
