import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertNoCairnLinks,
  assertSafeStoreFolder,
  makeDirectory,
  splitCairnPath,
  writeFileAtomic,
} from '@cairn/core';
import type { WarningSink } from '@cairn/index-kit';
import type { QmdCommand } from './qmd-command';
import { parseQmdHits, type QmdHit } from './qmd-hits';
import type { ResolvedQmdOptions } from './qmd-options';
import { runQmd } from './qmd-runner';

/** qmd's named index: its config is `<dir>/cairn.yml`, and `--index` keeps any `.qmd/` folder out. */
export const QMD_INDEX_NAME = 'cairn';
const STATE_FILE = 'cairn-state.json';
const DATABASE_FILE = 'index.sqlite';
/** What qmd and Cairn open in the index folder (`cache` is qmd's XDG_CACHE_HOME). */
const QMD_FILES = [
  STATE_FILE,
  DATABASE_FILE,
  `${DATABASE_FILE}-wal`,
  `${DATABASE_FILE}-shm`,
  `${QMD_INDEX_NAME}.yml`,
  'cache',
];

/** A folder qmd indexes as one collection. */
export interface QmdCollectionSpec {
  name: string;
  /** Absolute folder. */
  dir: string;
  /** Changes whenever a markdown file under `dir` is added, removed or modified. */
  signature: () => Promise<string>;
}

interface CollectionState {
  dir: string;
  signature: string;
}

interface IndexState {
  collections: Record<string, CollectionState>;
}

function emptyState(): IndexState {
  return { collections: {} };
}

/**
 * One qmd index in a folder of the project (`.cairn/index/qmd/` by default):
 * collections are added on first use, `qmd update` runs when the markdown
 * changed since the last run (tracked by signature in a small state file,
 * so separate processes agree), and writes schedule a debounced update.
 * Mutating qmd runs are serialised; searches run alongside them.
 *
 * Not a `syncPool` sink (index-kit): qmd reads, chunks and embeds a
 * collection's files itself and its CLI has no per-file upsert or delete,
 * so Cairn keeps only a signature per collection and lets `qmd update` do
 * the incremental work.
 */
export class QmdIndex {
  private chain: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private pending: QmdCollectionSpec[] = [];
  private inFlight: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly command: QmdCommand,
    private readonly options: ResolvedQmdOptions,
    private readonly warn: WarningSink,
  ) {}

  /** Runs qmd against this index (never the user's global qmd config or cache). */
  /**
   * Under a project's `.cairn/`, the index folder and its files are reached
   * without a link (INVALID_PATH otherwise): qmd, a separate process,
   * would follow one into another project's index.
   */
  private checkFolder(): void {
    if (!splitCairnPath(this.dir)) return;
    for (const name of QMD_FILES) assertNoCairnLinks(join(this.dir, name));
  }

  run(args: string[], timeoutMs: number) {
    this.checkFolder();
    return runQmd(this.command, ['--index', QMD_INDEX_NAME, ...args], {
      cwd: this.dir,
      timeoutMs,
      env: {
        ...process.env,
        ...this.options.env,
        INDEX_PATH: join(this.dir, DATABASE_FILE),
        QMD_CONFIG_DIR: this.dir,
        XDG_CACHE_HOME: join(this.dir, 'cache'),
        NO_COLOR: '1',
      },
    });
  }

  private async readState(): Promise<IndexState> {
    this.checkFolder();
    // Without the database, recorded signatures mean nothing: start over.
    if (!existsSync(join(this.dir, DATABASE_FILE))) return emptyState();
    try {
      const parsed = JSON.parse(await readFile(join(this.dir, STATE_FILE), 'utf8')) as IndexState;
      return typeof parsed?.collections === 'object' && parsed.collections !== null
        ? parsed
        : emptyState();
    } catch {
      return emptyState();
    }
  }

  private async writeState(state: IndexState): Promise<void> {
    this.checkFolder();
    await writeFileAtomic(join(this.dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
  }

  /** Serialises mutating work on this index within the process. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async addCollection(spec: QmdCollectionSpec, known: boolean): Promise<void> {
    const timeout = this.options.updateTimeoutMs;
    if (known) await this.run(['collection', 'remove', spec.name], timeout).catch(() => undefined);
    const add = ['collection', 'add', spec.dir, '--name', spec.name, '--mask', '**/*.md'];
    try {
      await this.run(add, timeout);
    } catch (error) {
      // Left behind by an earlier run whose state file was lost: replace it.
      if (!String((error as Error).message).includes('already exists')) throw error;
      await this.run(['collection', 'remove', spec.name], timeout);
      await this.run(add, timeout);
    }
  }

  /**
   * Makes sure every collection exists, points at its folder and has
   * indexed the files as they are now. Throws when qmd fails.
   */
  prepare(specs: QmdCollectionSpec[]): Promise<void> {
    return this.exclusive(async () => {
      assertSafeStoreFolder(this.dir);
      await makeDirectory(this.dir);
      const state = await this.readState();
      let stale = false;
      const signatures = new Map<string, string>();
      for (const spec of specs) {
        const signature = await spec.signature();
        signatures.set(spec.name, signature);
        const known = state.collections[spec.name];
        if (known?.dir === spec.dir) {
          stale ||= known.signature !== signature;
          continue;
        }
        await this.addCollection(spec, known !== undefined);
        state.collections[spec.name] = { dir: spec.dir, signature };
      }
      if (stale) await this.run(['update'], this.options.updateTimeoutMs);
      for (const spec of specs) {
        state.collections[spec.name] = { dir: spec.dir, signature: signatures.get(spec.name)! };
      }
      await this.writeState(state);
    });
  }

  /** Removes these collections from qmd (if it has them) and from the state. */
  forget(names: string[]): Promise<void> {
    return this.exclusive(() => this.drop(new Set(names)));
  }

  /** Drops collections this project created that are not in `keep` (pools no longer registered). */
  prune(keep: Set<string>): Promise<void> {
    return this.exclusive(async () => {
      const state = await this.readState();
      await this.drop(new Set(Object.keys(state.collections).filter((name) => !keep.has(name))));
    });
  }

  private async drop(names: Set<string>): Promise<void> {
    if (names.size === 0 || !existsSync(this.dir)) return;
    const state = await this.readState();
    for (const name of names) {
      await this.run(['collection', 'remove', name], this.options.updateTimeoutMs).catch(
        () => undefined,
      );
      delete state.collections[name];
    }
    await this.writeState(state);
  }

  /** `qmd search` (BM25, every term must match) in these collections. */
  async search(query: string, collections: string[], limit: number): Promise<QmdHit[]> {
    const scope = collections.flatMap((name) => ['-c', name]);
    const args = ['search', query, '--json', '-n', String(limit), ...scope];
    const { stdout } = await this.run(args, this.options.searchTimeoutMs);
    return parseQmdHits(stdout);
  }

  /**
   * After a write: `qmd update` once writes have been quiet for the debounce
   * time. Only collections already created are kept fresh (a project that
   * never searched through qmd costs nothing). Failures become warnings.
   */
  scheduleUpdate(specs: QmdCollectionSpec[]): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.pending = specs;
    this.timer = setTimeout(() => {
      this.inFlight = this.runPending();
    }, this.options.updateDebounceMs);
    this.timer.unref();
  }

  private async runPending(): Promise<void> {
    this.timer = undefined;
    const specs = this.pending;
    this.pending = [];
    try {
      await this.updateCreated(specs);
    } catch (error) {
      this.warn(`qmd update after a write failed: ${(error as Error).message}`);
    }
  }

  /** True while a debounced update waits for its quiet time. */
  get updatePending(): boolean {
    return this.timer !== undefined;
  }

  private async updateCreated(specs: QmdCollectionSpec[]): Promise<void> {
    if (this.closed) return;
    const state = await this.readState();
    const created = specs.filter((spec) => state.collections[spec.name]?.dir === spec.dir);
    if (created.length > 0) await this.prepare(created);
  }

  /** Runs a pending debounced update now and waits for all work on the index. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.inFlight = this.runPending();
    }
    await this.inFlight;
    await this.chain;
  }

  /** Cancels a pending update and waits for running qmd processes. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    await this.inFlight;
    await this.chain;
  }
}
