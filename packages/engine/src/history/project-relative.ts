import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/**
 * Paths under the project made relative (`/home/alice/proj/lib/x.js` is
 * `lib/x.js`, the folder itself `.`): what a fix says travels to other
 * clones and machines (shared fixes, the units a fix is promoted to),
 * where this one's folder means nothing.
 */
export function projectRelative(rootDir: string): (text: string) => string {
  const roots = [...new Set([resolve(rootDir), safeRealpath(rootDir)])].sort(
    (a, b) => b.length - a.length,
  );
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = roots.map(
    (root) => new RegExp(`${literal(root)}(?:${literal(sep)}|(?=$|[\\s'"\`]))`, 'g'),
  );
  return (text) =>
    patterns.reduce(
      (out, pattern) => out.replace(pattern, (m) => (m.endsWith(sep) ? '' : '.')),
      text,
    );
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
