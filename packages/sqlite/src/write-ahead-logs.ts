import { statSync } from 'node:fs';

/** What `settleWriteAheadLogs` needs of a connection (every driver's database has it). */
interface Connection {
  readonly open: boolean;
  close(): unknown;
}

/** The file databases this process opened (openSqlite), for `settleWriteAheadLogs`. */
const opened = new Map<Connection, string>();

/** Called by openSqlite for every file database. */
export function trackDatabase(db: Connection, path: string): void {
  for (const [other] of opened) if (!other.open) opened.delete(other);
  opened.set(db, path);
}

/**
 * A process that answers one event and exits (a hook) leaves its
 * connections open: closing one checkpoints its write-ahead log and
 * deletes it, fsyncs included. But the next process to open the file
 * reads the whole log to rebuild its index, and checkpoints that are not
 * followed by a close never shorten it (each new process forgets what was
 * copied back), so the log of a long session grows, and so does every
 * event's start. This closes the connections whose log is larger than
 * `maxLogBytes`: the last connection to close folds the log into the
 * database and removes it (a connection other processes still hold is
 * just closed). Errors are ignored: committed work is in the log already.
 */
export function settleWriteAheadLogs(maxLogBytes: number): void {
  for (const [db, path] of opened) {
    opened.delete(db);
    if (!db.open) continue;
    try {
      const log = statSync(`${path}-wal`, { throwIfNoEntry: false });
      if (log && log.size > maxLogBytes) db.close();
    } catch {
      // A log that cannot be stat'ed or closed stays for the next writer.
    }
  }
}
