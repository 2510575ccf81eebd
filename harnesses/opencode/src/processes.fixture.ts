/** Test support: which programs run in a folder, read from Linux's /proc. */
import { readdir, readFile, readlink } from 'node:fs/promises';

export interface RunningProcess {
  pid: number;
  /** The executable the kernel runs (links resolved), e.g. the real `node` binary. */
  exe: string;
  argv: string[];
}

/**
 * The processes of this user whose working folder is `cwd`. Processes that
 * exit or cannot be read while the folder is walked are left out.
 */
export async function processesIn(cwd: string): Promise<RunningProcess[]> {
  const found: RunningProcess[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if ((await readlink(`/proc/${name}/cwd`)) !== cwd) continue;
      const exe = await readlink(`/proc/${name}/exe`);
      const argv = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      found.push({ pid: Number(name), exe, argv });
    } catch {
      // Gone, or another user's: not ours to look at.
    }
  }
  return found;
}
