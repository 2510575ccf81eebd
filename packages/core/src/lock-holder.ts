import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds a lock file, as the file records it, and how to tell whether
 * that holder still runs. A process id alone says little: it is reused
 * after the process exits, it means another process in another PID
 * namespace (a container) or after a reboot, and a lock file copied from
 * another machine (committed to a repository) names a process of that
 * machine. So a lock records, besides the pid, the process's start time
 * (`/proc/<pid>/stat`, field 22, in clock ticks since boot), the boot id
 * (`/proc/sys/kernel/random/boot_id`), the PID namespace
 * (`/proc/self/ns/pid`) and the host name. Off Linux only the pid and the
 * host name are known.
 */
export interface LockHolder {
  pid: number;
  /** Start time of the process in clock ticks since boot (Linux). */
  start?: string;
  /** The kernel's boot id (Linux): another boot, or another machine, when it differs. */
  boot?: string;
  /** The PID namespace (Linux, `pid:[inode]`): the pid means nothing in another one. */
  pidns?: string;
  host?: string;
}

/** What the holder of a lock file is, as far as this process can tell. */
export type HolderState =
  /** Gone: dead, its pid reused, another boot or another machine. */
  | 'gone'
  /** Running here, the very process the lock names. */
  | 'running'
  /** Cannot be told (an old lock without a start time, another PID namespace): judged by age. */
  | 'unknown';

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
};

/** Field 22 of `/proc/<pid>/stat` (the name in field 2 may hold spaces and parentheses). */
export function processStartTime(pid: number | 'self'): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start && /^\d+$/.test(start) ? start : undefined;
}

let self: Omit<LockHolder, 'pid'> | undefined;

/** This process's identity, read once. */
function selfIdentity(): Omit<LockHolder, 'pid'> {
  if (self) return self;
  let pidns: string | undefined;
  try {
    pidns = readlinkSync('/proc/self/ns/pid');
  } catch {
    pidns = undefined;
  }
  self = {
    start: processStartTime('self'),
    boot: readText('/proc/sys/kernel/random/boot_id')?.trim() || undefined,
    pidns,
    host: hostname(),
  };
  return self;
}

/** The lines a lock records about this process, after its pid, date and nonce. */
export function holderLines(): string {
  const { start, boot, pidns, host } = selfIdentity();
  const fields = { start, boot, pidns, host };
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => !!entry[1] && !/[\n=]/.test(entry[1]))
    .map(([key, value]) => `${key}=${value}\n`)
    .join('');
}

/**
 * The holder a lock file names: its first line is the pid (all Cairn
 * versions), then `key=value` lines where this version wrote them. An
 * older lock has the pid alone. Undefined without a pid.
 */
export function parseHolder(content: string): LockHolder | undefined {
  const lines = content.split('\n');
  const first = lines[0] ?? '';
  const pid = /^\d+$/.test(first) ? Number(first) : Number.NaN;
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const holder: LockHolder = { pid };
  for (const line of lines.slice(1)) {
    const match = /^(start|boot|pidns|host)=(.+)$/.exec(line);
    if (match) holder[match[1] as 'start' | 'boot' | 'pidns' | 'host'] = match[2];
  }
  return holder;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process a lock names still runs. Another boot id means
 * another boot or machine; without boot ids, another host name means
 * another machine; in another PID namespace the pid cannot be checked;
 * here, a dead pid, or a live one whose start time differs (reused), is
 * gone.
 */
export function holderState(holder: LockHolder): HolderState {
  const me = selfIdentity();
  if (holder.boot && me.boot) {
    if (holder.boot !== me.boot) return 'gone';
  } else if (holder.host && me.host && holder.host !== me.host) return 'gone';
  if (holder.pidns && me.pidns && holder.pidns !== me.pidns) return 'unknown';
  if (!alive(holder.pid)) return 'gone';
  if (!holder.start) return 'unknown';
  const start = processStartTime(holder.pid);
  if (start === undefined) return 'unknown';
  return start === holder.start ? 'running' : 'gone';
}
