import { formatError, readProjectGlossary } from '@cairn/core';
import { type GlossaryIndex, indexGlossary } from './query-expansion';

const projectIndexes = new WeakMap<string[][], GlossaryIndex>();

/**
 * The project's own glossary (`.cairn/glossary.json`), indexed once per
 * version of the file; the search and the pack's relevance judge read the
 * same one. A broken file is reported through `warn` and the caller goes
 * on without it; with no `warn`, its typed error is thrown.
 */
export function projectGlossaryIndex(
  rootDir: string,
  warn?: (message: string) => void,
): GlossaryIndex | undefined {
  let groups: string[][] | undefined;
  try {
    groups = readProjectGlossary(rootDir);
  } catch (error) {
    if (!warn) throw error;
    warn(`search ignores the project glossary until it is fixed: ${formatError(error)}`);
    return undefined;
  }
  if (!groups) return undefined;
  let index = projectIndexes.get(groups);
  if (!index) {
    index = indexGlossary(groups);
    projectIndexes.set(groups, index);
  }
  return index;
}
