import {
  CAIRN_DIR,
  CAIRN_INDEX_DIR,
  CAIRN_STATE_DIR,
  createCairnFile,
  decodeExactText,
  encodeExactText,
  MEMORY_THREADS_DIR,
  readCairnFile,
  writeCairnFile,
} from '@cairn/core';

/**
 * What git does not track under `.cairn/` (docs/TEAMS.md): the derived
 * state and indexes, rebuilt from the markdown or kept per machine, and
 * each clone's own thread heads, which are views of its own lineage.
 */
export const CAIRN_GITIGNORE_LINES = [
  `${CAIRN_STATE_DIR}/`,
  `${CAIRN_INDEX_DIR}/`,
  `memory/${MEMORY_THREADS_DIR}/`,
] as const;

const GITIGNORE = `${CAIRN_DIR}/.gitignore`;

/**
 * Adds the missing lines to `.cairn/.gitignore`, keeping every line (and
 * byte) already there, never through a link (the `.cairn/` resolver).
 * Returns true when it wrote the file.
 */
export async function ensureCairnGitignore(rootDir: string): Promise<boolean> {
  // Exact: lines the user added, in any encoding, are written back as they were.
  const bytes = await readCairnFile(rootDir, GITIGNORE);
  const current = bytes === undefined ? undefined : decodeExactText(bytes);
  const present = new Set((current ?? '').split('\n').map((line) => line.trim()));
  const missing = CAIRN_GITIGNORE_LINES.filter((line) => !present.has(line));
  if (missing.length === 0) return false;
  if (current === undefined) {
    const header =
      "# Kept on this machine by Cairn: derived state and indexes, and this clone's thread heads.";
    // False when another init created it meanwhile: that one wrote the same lines.
    await createCairnFile(rootDir, GITIGNORE, `${header}\n${missing.join('\n')}\n`);
    return true;
  }
  const separator = current.endsWith('\n') || current === '' ? '' : '\n';
  await writeCairnFile(
    rootDir,
    GITIGNORE,
    encodeExactText(`${current}${separator}${missing.join('\n')}\n`),
  );
  return true;
}
