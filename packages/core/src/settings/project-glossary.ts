import { join } from 'node:path';
import * as z from 'zod/mini';
import { describeZodIssue, lazySchema, safeParse } from '../contracts/schemas';
import { configError } from '../errors';
import { readCairnFileSync, statCairnFile } from '../workspace/cairn-files';
import { CAIRN_DIR, cairnPath } from '../workspace/paths';

/** A project's own search vocabulary, beside its config: `.cairn/glossary.json`. */
export const PROJECT_GLOSSARY_FILENAME = 'glossary.json';

/**
 * `{ "synonyms": [["tern", "billing app"], ["on-call", "duty"]] }`: groups
 * of words or phrases the project uses for the same thing. Repository
 * content, read without `cairn trust`: a glossary only widens what a
 * search looks for (at a lower weight than the query's own words), it
 * runs nothing and sends nothing.
 */
export const projectGlossarySchema = lazySchema(() =>
  z.strictObject({
    $schema: z.optional(z.string()),
    synonyms: z
      .array(
        z
          .array(z.string().check(z.minLength(1), z.maxLength(100)))
          .check(z.minLength(2), z.maxLength(50)),
      )
      .check(z.maxLength(5000)),
  }),
);

export function projectGlossaryPath(rootDir: string): string {
  return join(cairnPath(rootDir), PROJECT_GLOSSARY_FILENAME);
}

interface CachedGlossary {
  stamp: string;
  groups: string[][];
}

const cache = new Map<string, CachedGlossary>();

function parseGlossary(file: string, bytes: Buffer): string[][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    const reason = `not valid JSON (${(error as Error).message})`;
    throw configError({ source: file, key: '(file)', reason, cause: error });
  }
  const result = safeParse(projectGlossarySchema, parsed);
  if (!result.success) {
    const { key, reason } = describeZodIssue(result.error);
    throw configError({ source: file, key, reason });
  }
  return result.data.synonyms;
}

/**
 * The synonym groups of the project at `rootDir`, or undefined when it has
 * no `.cairn/glossary.json`. Read again only when the file's size or mtime
 * moved. A link in its path is refused (INVALID_PATH) and a broken file is
 * INVALID_CONFIG naming the key: the caller decides whether to search
 * without it.
 */
export function readProjectGlossary(rootDir: string): string[][] | undefined {
  const file = projectGlossaryPath(rootDir);
  const relPath = `${CAIRN_DIR}/${PROJECT_GLOSSARY_FILENAME}`;
  // Refuses a link anywhere on the way (INVALID_PATH), and a FIFO or device.
  const info = statCairnFile(rootDir, relPath);
  if (!info) {
    cache.delete(file);
    return undefined;
  }
  const stamp = `${info.size}:${info.mtimeMs}`;
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.groups;
  const bytes = readCairnFileSync(rootDir, relPath);
  if (!bytes) {
    cache.delete(file);
    return undefined;
  }
  const groups = parseGlossary(file, bytes);
  cache.set(file, { stamp, groups });
  return groups;
}
