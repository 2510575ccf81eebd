/**
 * How deep arrays and objects may nest in a value Cairn takes from outside
 * (a tool's input and output in a lifecycle event). Real tool payloads
 * nest a few levels; past this, serialising, redacting or validating the
 * value recursively could exhaust the stack, so the event is refused.
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * Objects and arrays looked at, at most. A hook payload (8 MB at most)
 * holds fewer; only an in-process value sharing children at every level
 * could make the walk exponential, and it is refused like a deep one.
 */
const MAX_VISITS = 5_000_000;

/**
 * True when `value` nests arrays or objects deeper than `limit` levels.
 * Iterative, and it stops at the first level past the limit: the check
 * never recurses, whatever the value (a cycle is infinitely deep).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let visits = 0;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit || ++visits > MAX_VISITS) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
