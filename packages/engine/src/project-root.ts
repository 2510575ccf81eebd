import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CAIRN_DIR } from '@cairn/core';

/**
 * The nearest folder at or above `start` that holds `.cairn/`, or `start`
 * itself when none does (so `cairn init` creates it there).
 */
export function findProjectRoot(start: string): string {
  const origin = resolve(start);
  let current = origin;
  for (;;) {
    if (statSync(join(current, CAIRN_DIR), { throwIfNoEntry: false })?.isDirectory())
      return current;
    const parent = dirname(current);
    if (parent === current) return origin;
    current = parent;
  }
}
