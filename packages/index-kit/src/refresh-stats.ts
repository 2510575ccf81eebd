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
