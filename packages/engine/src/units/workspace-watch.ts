import { type FSWatcher, statfsSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import {
  ATOMIC_TEMP_PREFIX,
  assertNoLinks,
  isAllowedWorkspaceFile,
  isRealFolder,
  MEMORY_THREADS_DIR,
  MEMORY_WORKSPACE_PATH,
  memoryWorkspacePath,
  unsafePathError,
  workspaceFilePath,
} from '@cairn/core';

/** A file of the workspace as a listing gives it. */
export interface ListedFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * `path` as a listing of `.cairn/memory/` would give it (`listMemoryFiles`,
 * the search index's source), or undefined when it would not list it: a
 * temp file, a name the workspace does not hold, a folder, gone. A link on
 * the way or at the file (or a FIFO) throws INVALID_PATH, as the listing does.
 */
export function statWorkspaceFile(rootDir: string, path: string): ListedFile | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name.startsWith(ATOMIC_TEMP_PREFIX) || !isAllowedWorkspaceFile(path)) return undefined;
  const stat = assertNoLinks(rootDir, workspaceFilePath(path));
  if (!stat || stat.isDirectory()) return undefined;
  if (!stat.isFile()) throw unsafePathError(join(memoryWorkspacePath(rootDir), path), 'not_file');
  return { path, bytes: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * Filesystems whose inotify events cover every write, whoever makes it.
 * Network and host-shared mounts (NFS, SMB, 9p under WSL, FUSE, virtiofs)
 * are left out: a write made on the other side raises no event there.
 */
const LOCAL_FILESYSTEMS = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
]);

/**
 * What changed in `.cairn/memory/` since the last call, learnt from the
 * kernel (inotify) instead of a stat of every file. A long-lived process
 * (an in-process harness plugin) then rescans only the files named. Only
 * where the events are complete (Linux, on a local filesystem); elsewhere,
 * and whenever an event could have been lost, `changes` answers
 * `undefined`: list and stat every file, as without a watch.
 */
export interface WorkspaceWatch {
  /**
   * Workspace-relative paths that may have changed since the previous
   * call, or undefined when every file must be listed again. Events of
   * writes that finished before the call are always included.
   */
  changes(): Promise<Set<string> | undefined>;
  /** A write this process made (the workspace writer's notice): rescanned even before its event. */
  note(path: string): void;
  /** `statWorkspaceFile` of this workspace. */
  stat(path: string): ListedFile | undefined;
  close(): void;
}

/** Past this many changed paths a full listing is cheaper anyway. */
const MAX_DIRTY = 4096;

/** Two turns of the event loop: the second starts with a poll, which reads every queued inotify event. */
const settle = () =>
  new Promise<void>((resolve) => setImmediate(() => setImmediate(() => resolve())));

function watchable(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return LOCAL_FILESYSTEMS.has(statfsSync(dir).type);
  } catch {
    return false;
  }
}

class InotifyWatch implements WorkspaceWatch {
  private readonly rootDir: string;
  private readonly workspace: string;
  private top: FSWatcher | undefined;
  private threads: FSWatcher | undefined;
  private dirty = new Set<string>();
  /** Set when an event may have been missed: the next call lists every file. */
  private lost = true;
  private closed = false;
  private asked = false;

  constructor(rootDir: string) {
    this.rootDir = rootDir;
    this.workspace = memoryWorkspacePath(rootDir);
  }

  stat(path: string): ListedFile | undefined {
    return statWorkspaceFile(this.rootDir, path);
  }

  async changes(): Promise<Set<string> | undefined> {
    // A process that scans once (a hook, a command) never pays for a watch:
    // it starts on the second call, and that call lists every file too.
    if (!this.top && !this.closed && this.asked) this.open();
    this.asked = true;
    if (!this.top || this.lost) {
      this.lost = false;
      this.dirty = new Set();
      return undefined;
    }
    await settle();
    const dirty = this.dirty;
    this.dirty = new Set();
    // An event read while settling may say that events were lost.
    if (this.lost || !this.top) {
      this.lost = false;
      return undefined;
    }
    return dirty;
  }

  note(path: string): void {
    this.mark(path);
  }

  /** A watch nobody asks any more (its engine was dropped) holds a bounded set. */
  private mark(path: string): void {
    if (this.dirty.size >= MAX_DIRTY) {
      this.lost = true;
      this.dirty = new Set();
    }
    this.dirty.add(path);
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.top?.close();
    this.threads?.close();
    this.top = undefined;
    this.threads = undefined;
  }

  /**
   * Watches the workspace (and its threads folder) before the full listing
   * that follows. A link on the way is never watched: the listing refuses it.
   */
  private open(): void {
    this.lost = true;
    if (!isRealFolder(this.rootDir, MEMORY_WORKSPACE_PATH) || !watchable(this.workspace)) return;
    try {
      this.top = this.watchDir(this.workspace, '');
      this.openThreads();
    } catch {
      this.stop();
    }
  }

  /** Throws for a threads folder that is a link or a file: then nothing is watched (every call lists). */
  private openThreads(): void {
    this.threads?.close();
    this.threads = undefined;
    const info = assertNoLinks(this.rootDir, `${MEMORY_WORKSPACE_PATH}/${MEMORY_THREADS_DIR}`);
    if (info && !info.isDirectory()) throw new Error('threads is not a folder');
    const dir = join(this.workspace, MEMORY_THREADS_DIR);
    if (info) this.threads = this.watchDir(dir, `${MEMORY_THREADS_DIR}/`);
  }

  private watchDir(dir: string, prefix: string): FSWatcher {
    const watcher = watch(dir, { persistent: false }, (_event, name) => {
      // No name, or the folder's own (it was moved or deleted): list everything, watch again.
      if (!name || name === basename(dir)) {
        this.lost = true;
        if (prefix === '') this.stop();
        else this.reopenThreads();
        return;
      }
      const path = `${prefix}${name}`;
      if (path === MEMORY_THREADS_DIR) {
        this.lost = true;
        this.reopenThreads();
      } else this.mark(path);
    });
    // The folder went away or the kernel dropped events: list everything, watch again.
    watcher.on('error', () => {
      this.lost = true;
      this.stop();
    });
    if (prefix === '') watcher.on('close', () => (this.lost = true));
    return watcher;
  }

  private reopenThreads(): void {
    try {
      this.openThreads();
    } catch {
      this.stop();
    }
  }
}

export function watchWorkspace(rootDir: string): WorkspaceWatch {
  return new InotifyWatch(rootDir);
}
