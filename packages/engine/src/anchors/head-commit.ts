import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitDir } from '../store';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** A full commit id (SHA-1 or SHA-256). */
export const isCommitSha = (text: string): boolean => SHA.test(text);

/** HEAD's commit read from `.git` without a process (a loose or packed ref), or undefined. */
export function readHeadCommit(rootDir: string): string | undefined {
  try {
    const dir = gitDir(rootDir);
    const head = readFileSync(join(dir, 'HEAD'), 'utf8').trim();
    if (SHA.test(head)) return head;
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    // A worktree's refs live in the common folder.
    const common = existsSync(join(dir, 'commondir'))
      ? join(dir, readFileSync(join(dir, 'commondir'), 'utf8').trim())
      : dir;
    for (const base of [dir, common]) {
      const loose = join(base, ref);
      if (existsSync(loose)) {
        const sha = readFileSync(loose, 'utf8').trim();
        if (SHA.test(sha)) return sha;
      }
    }
    const packed = readFileSync(join(common, 'packed-refs'), 'utf8');
    const line = packed.split('\n').find((entry) => entry.endsWith(` ${ref}`));
    const sha = line?.split(' ')[0];
    return sha && SHA.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}
