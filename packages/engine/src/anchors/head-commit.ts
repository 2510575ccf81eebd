import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gitDir, readGitFile } from '../store';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** A ref as git names one: under `refs/`, no `..` or empty step (git refuses those), so it stays in `.git`. */
const REF = /^ref: (refs\/(?:[^\s/.][^\s/]*\/)*[^\s/.][^\s/]*)$/;

/** A full commit id (SHA-1 or SHA-256). */
export const isCommitSha = (text: string): boolean => SHA.test(text);

/** HEAD's commit read from `.git` without a process (a loose or packed ref), or undefined. */
export function readHeadCommit(rootDir: string): string | undefined {
  try {
    const dir = gitDir(rootDir);
    const head = readGitFile(join(dir, 'HEAD')).trim();
    if (SHA.test(head)) return head;
    const ref = REF.exec(head)?.[1];
    if (!ref) return undefined;
    // A worktree's refs live in the common folder.
    const common = existsSync(join(dir, 'commondir'))
      ? join(dir, readGitFile(join(dir, 'commondir')).trim())
      : dir;
    for (const base of [dir, common]) {
      const loose = join(base, ref);
      if (existsSync(loose)) {
        const sha = readGitFile(loose).trim();
        if (SHA.test(sha)) return sha;
      }
    }
    const packed = readGitFile(join(common, 'packed-refs'));
    const line = packed.split('\n').find((entry) => entry.endsWith(` ${ref}`));
    const sha = line?.split(' ')[0];
    return sha && SHA.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}
