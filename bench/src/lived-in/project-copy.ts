import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_NAME } from './lived-in-generator';

/** Copies a project folder whole (SQLite files included): nothing may hold it open. */
export async function copyProject(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await cp(from, to, { recursive: true, errorOnExist: true, force: false });
}

/** A scratch copy of a cached project, named `lived-in` like the original; `dispose` removes it. */
export async function scratchCopy(
  cachedRoot: string,
): Promise<{ rootDir: string; dispose: () => Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), 'cairn-bench-lived-in-'));
  const rootDir = join(base, PROJECT_NAME);
  await copyProject(cachedRoot, rootDir);
  return { rootDir, dispose: () => rm(base, { recursive: true, force: true }) };
}
