import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileBackend, openSearchIndex } from '@cairn/backend-file';
import { memoryWorkspacePath } from '@cairn/core';
import { type Distribution, distribution, median, timed } from '../stats';
import { type GeneratedWorkspace, syntheticUnit } from './generate-workspace';
import type { TextGenerator } from './text-generator';

export interface IndexBenchOptions {
  refreshRuns: number;
  queries: number;
  backendQueries: number;
}

export interface SearchFigures extends Distribution {
  /** Queries that found nothing (a sanity check that queries are neither empty nor absurd). */
  zeroHitQueries: number;
  medianHits: number;
  /** The three slowest queries, to see what the tail is made of. */
  slowest: { query: string; ms: number; hits: number }[];
}

export interface IndexFigures {
  rebuild: { ms: number; mbPerSecond: number; filesScanned: number; chunksWritten: number };
  refreshUnchanged: Distribution;
  refreshOneFile: Distribution & { runsWithOneFileChanged: number };
  indexSearch: SearchFigures;
  backendSearch: SearchFigures;
}

type SearchFn = (query: string) => Promise<unknown[]>;

async function measureSearch(queries: string[], search: SearchFn): Promise<SearchFigures> {
  for (const query of queries.slice(0, 10)) await search(query);
  const runs: { query: string; ms: number; hits: number }[] = [];
  for (const query of queries) {
    const { value, ms } = await timed(() => search(query));
    runs.push({ query, ms, hits: value.length });
  }
  return {
    ...distribution(runs.map((run) => run.ms)),
    zeroHitQueries: runs.filter((run) => run.hits === 0).length,
    medianHits: median(runs.map((run) => run.hits)),
    slowest: [...runs].sort((a, b) => b.ms - a.ms).slice(0, 3),
  };
}

type SearchIndex = ReturnType<typeof openSearchIndex>;

/** Appends one unit to a different daily file each run, then refreshes. */
async function measureRefresh(
  index: SearchIndex,
  workspace: GeneratedWorkspace,
  text: TextGenerator,
  runs: number,
): Promise<IndexFigures['refreshOneFile']> {
  const times: number[] = [];
  let oneFile = 0;
  for (let run = 0; run < runs; run += 1) {
    const name = workspace.dailyFiles[(run * 7) % workspace.dailyFiles.length]!;
    const day = new Date(`${name.slice(0, 10)}T18:00:00Z`);
    const unit = syntheticUnit(text, new Date(day.getTime() + run * 1000));
    await appendFile(join(memoryWorkspacePath(workspace.rootDir), name), `\n${unit}`);
    const { value, ms } = await timed(() => index.refresh());
    times.push(ms);
    if (value.filesChanged === 1) oneFile += 1;
  }
  return { ...distribution(times), runsWithOneFileChanged: oneFile };
}

/**
 * The index alone: a full build from nothing, refreshes with and without a
 * change, and searches in this process, through the index and through the
 * file backend (which keeps the index fresh on its own).
 */
export async function benchIndex(
  workspace: GeneratedWorkspace,
  text: TextGenerator,
  options: IndexBenchOptions,
): Promise<IndexFigures> {
  const { rootDir } = workspace;
  const queries = Array.from({ length: options.queries }, text.query);
  const index = openSearchIndex(rootDir);
  let figures: Omit<IndexFigures, 'backendSearch'>;
  try {
    const build = await timed(() => index.rebuild());
    const unchanged: number[] = [];
    for (let run = 0; run < options.refreshRuns; run += 1) {
      unchanged.push((await timed(() => index.refresh())).ms);
    }
    figures = {
      rebuild: {
        ms: build.ms,
        mbPerSecond: workspace.totalBytes / 1e6 / (build.ms / 1000),
        filesScanned: build.value.filesScanned,
        chunksWritten: build.value.chunksWritten,
      },
      refreshUnchanged: distribution(unchanged),
      refreshOneFile: await measureRefresh(index, workspace, text, options.refreshRuns),
      indexSearch: await measureSearch(queries, (query) => index.search({ query, limit: 10 })),
    };
  } finally {
    index.close();
  }
  const backend = createFileBackend();
  const search = backend.search!.bind(backend);
  const backendSearch = await measureSearch(queries.slice(0, options.backendQueries), (query) =>
    search(rootDir, { query, limit: 10 }),
  );
  return { ...figures, backendSearch };
}
