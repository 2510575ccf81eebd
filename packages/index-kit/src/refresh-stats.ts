/** What one refresh (or rebuild) did. */
export interface SearchIndexRefreshStats {
  /** Files listed (one stat call each). */
  filesScanned: number;
  /** Files read and hashed because their size or mtime moved (or were new). */
  filesRead: number;
  /** Files whose chunks were replaced: new files and files with new content. */
  filesChanged: number;
  /** Files gone from disk whose chunks were deleted. */
  filesRemoved: number;
  chunksWritten: number;
  /** Wall time of the refresh in milliseconds. */
  ms: number;
}

/** Adds each figure of one pool's refresh into `total` (a running sum over pools); returns `total`. */
export function addRefreshStats<Stats extends { [K in keyof Stats]: number }>(
  total: Stats,
  stats: Stats,
): Stats {
  const sum = total as Record<string, number>;
  for (const key of Object.keys(sum)) sum[key]! += (stats as Record<string, number>)[key] ?? 0;
  if (typeof sum.ms === 'number') sum.ms = Math.round(sum.ms * 100) / 100;
  return total;
}
