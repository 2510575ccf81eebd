import { createHash } from 'node:crypto';
import { lstat, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A map from every path under `dir` to a fingerprint of what is there (file
 * hash, link target, folder). Two equal snapshots mean nothing on disk changed.
 */
export async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  async function walk(path: string, rel: string): Promise<void> {
    const info = await lstat(path).catch(() => undefined);
    if (!info) return;
    if (info.isSymbolicLink()) {
      snapshot[rel] = `link:${await readlink(path)}`;
    } else if (info.isDirectory()) {
      snapshot[rel] = 'dir';
      for (const name of (await readdir(path)).sort()) {
        await walk(join(path, name), rel ? `${rel}/${name}` : name);
      }
    } else if (!info.isFile()) {
      // A socket (the hook server's, under a HOME's cache), a FIFO or a device: its kind, no content.
      snapshot[rel] = `special:${info.mode.toString(8)}`;
    } else {
      const hash = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
      snapshot[rel] = `file:${info.mode.toString(8)}:${hash}`;
    }
  }
  await walk(dir, '');
  return snapshot;
}

export interface TempProject {
  /** The project root; `.cairn/` does not exist yet. */
  root: string;
  cleanup(): Promise<void>;
}

/** A fresh, empty project folder in the system temp dir. */
export async function makeTempProject(prefix = 'cairn-test-'): Promise<TempProject> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  // An in-process plugin's index refresh may still be finishing its last write: retry ENOTEMPTY.
  const cleanup = () => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  return { root, cleanup };
}
