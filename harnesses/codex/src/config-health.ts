import { parseJsonFile, readOptional } from '@cairn/harness-kit';
import {
  MCP_LABEL,
  mcpOwned,
  staleTrustEdit,
  type TomlEdit,
  trustLabelFile,
  trustOwned,
} from './config-edits';
import { cairnHookEntries, userHookKeys } from './hooks-file';
import { foreignTablesIn, type OwnedTable, regionLabels } from './toml-regions';

/**
 * What can go wrong in the user's config.toml between two installs, and
 * the edits that repair it: Codex's own tables written between Cairn's
 * markers, and trust regions of hooks files that moved or went away.
 */

export interface StaleTrust {
  /** The hooks file the region trusts, which is gone or no longer runs Cairn. */
  hooksFile: string;
  /** Trust keys of the user's own handlers in that file (they stay). */
  userKeys: Set<string>;
}

/**
 * Cairn's trust regions for hooks files other than `current` that are gone
 * or hold no Cairn hook any more: what a project that moved (or was
 * deleted) leaves behind. A file that cannot be read is left alone.
 */
export async function staleTrustRegions(text: string, current: string): Promise<StaleTrust[]> {
  const stale: StaleTrust[] = [];
  for (const label of regionLabels(text)) {
    const hooksFile = trustLabelFile(label);
    if (hooksFile === undefined || hooksFile === current) continue;
    let document: Record<string, unknown>;
    try {
      document = parseJsonFile(hooksFile, await readOptional(hooksFile));
    } catch {
      continue;
    }
    if (cairnHookEntries(document, hooksFile).length > 0) continue;
    stale.push({ hooksFile, userKeys: userHookKeys(document, hooksFile) });
  }
  return stale;
}

/** The edits that remove the stale trust regions of the user's config.toml. */
export async function staleTrustEdits(
  userConfig: string,
  current: string,
): Promise<[string, TomlEdit][]> {
  const text = (await readOptional(userConfig)) ?? '';
  const stale = await staleTrustRegions(text, current);
  return stale.map((region) => [
    userConfig,
    staleTrustEdit(userConfig, region.hooksFile, region.userKeys),
  ]);
}

function ownerOf(label: string): OwnedTable | undefined {
  if (label === MCP_LABEL) return mcpOwned;
  const hooksFile = trustLabelFile(label);
  return hooksFile === undefined ? undefined : trustOwned(hooksFile, new Set());
}

/**
 * Doctor's findings on the user's config.toml: tables that are not Cairn's
 * inside Cairn's regions (Codex wrote them there), and stale trust regions.
 */
export async function userConfigProblems(userConfig: string, current: string): Promise<string[]> {
  const text = await readOptional(userConfig);
  if (text === undefined) return [];
  const problems: string[] = [];
  for (const label of regionLabels(text)) {
    const owned = ownerOf(label);
    const foreign = owned ? foreignTablesIn(userConfig, text, label, owned) : [];
    if (foreign.length > 0) {
      problems.push(
        `${userConfig}: Cairn's block "${label}" holds settings that are not Cairn's (${foreign.join(', ')}): run \`cairn install codex\` to move them out of it`,
      );
    }
  }
  for (const stale of await staleTrustRegions(text, current)) {
    problems.push(
      `${userConfig} trusts Cairn's hooks in ${stale.hooksFile}, which is gone or no longer runs Cairn (a project that moved?): run \`cairn install codex\` in the project to remove the stale entries`,
    );
  }
  return problems;
}
