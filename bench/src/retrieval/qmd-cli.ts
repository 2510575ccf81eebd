import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { childEnv } from '../scale/cli-bench';
import type { Node24Tools } from './node24-tools';

/** A clean environment for qmd: its index and config live under the run's own HOME. */
export function qmdEnv(homeDir: string): NodeJS.ProcessEnv {
  return {
    ...childEnv(homeDir),
    XDG_CACHE_HOME: join(homeDir, '.cache'),
    XDG_CONFIG_HOME: join(homeDir, '.config'),
    NO_COLOR: '1',
  };
}

function failure(run: ReturnType<typeof spawnSync>, what: string): string {
  const detail = `${run.stderr ?? ''}${run.stdout ?? ''}`.replace(/\s+/g, ' ').trim();
  return `${what} exited with ${run.status}: ${detail.slice(0, 240)}`;
}

/** `qmd collection add <dir> --name <name>` (indexes the folder); throws with qmd's output. */
export function qmdAddCollection(
  tools: Node24Tools,
  env: NodeJS.ProcessEnv,
  dir: string,
  name: string,
): void {
  const run = spawnSync(tools.node, [tools.qmdBin, 'collection', 'add', dir, '--name', name], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(failure(run, '`qmd collection add`'));
}

/** The argument list of `qmd search <q> --json -n <limit> -c <name>` (after the node binary). */
export function qmdSearchArgs(
  tools: Node24Tools,
  query: string,
  collection: string,
  limit = 10,
): string[] {
  return [tools.qmdBin, 'search', query, '--json', '-n', String(limit), '-c', collection];
}

const qmdHitSchema = z.object({ file: z.string(), line: z.number().optional() });
const qmdHitsSchema = z.array(qmdHitSchema.loose());

export interface QmdHit {
  /** `<collection>/<path>` (the qmd:// prefix removed). */
  file: string;
  line: number | undefined;
}

/** The hits `qmd search --json` printed; throws when stdout is not that shape. */
export function parseQmdHits(stdout: string): QmdHit[] {
  const parsed = qmdHitsSchema.parse(JSON.parse(stdout.trim() || '[]'));
  return parsed.map((hit) => ({ file: hit.file.replace(/^qmd:\/\//, ''), line: hit.line }));
}

/** The workspace-relative path of a qmd hit in `collection`, or undefined for another one. */
export function qmdHitPath(hit: QmdHit, collection: string): string | undefined {
  const prefix = `${collection}/`;
  return hit.file.startsWith(prefix) ? hit.file.slice(prefix.length) : undefined;
}

const batchSchema = z.object({
  indexMs: z.number(),
  results: z.array(
    z.object({
      id: z.string(),
      ms: z.number(),
      hits: z.array(z.object({ file: z.string(), line: z.number().optional() })),
    }),
  ),
});

export type QmdBatch = z.infer<typeof batchSchema>;

export interface QmdBatchRequest {
  dbPath: string;
  collection: string;
  path: string;
  limit: number;
  queries: { id: string; text: string }[];
}

const BATCH_SCRIPT = fileURLToPath(new URL('./qmd-batch-search.mjs', import.meta.url));

/** Indexes `request.path` and answers every query in one Node 24 process (qmd's SDK). */
export async function qmdBatchSearch(
  tools: Node24Tools,
  env: NodeJS.ProcessEnv,
  request: QmdBatchRequest,
  workDir: string,
): Promise<QmdBatch> {
  const requestPath = join(workDir, 'qmd-request.json');
  await writeFile(requestPath, JSON.stringify(request));
  const run = spawnSync(tools.node, [BATCH_SCRIPT, tools.qmdDir, requestPath], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(failure(run, 'qmd batch search'));
  return batchSchema.parse(JSON.parse(run.stdout));
}
