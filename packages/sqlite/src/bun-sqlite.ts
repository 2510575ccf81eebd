import { createRequire } from 'node:module';

/**
 * better-sqlite3 does not load under Bun (it is a V8-API addon), and
 * harnesses such as OpenCode run Cairn's plugin inside Bun. This is a thin
 * better-sqlite3-shaped wrapper over `bun:sqlite`, covering exactly what the
 * repo uses: prepare/get/all/run/iterate/pluck, named `@param` objects,
 * exec, pragma (plain and `simple`), transaction().deferred/immediate,
 * close, `open`, and the `timeout` and `readonly` constructor options.
 */

interface BunStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  values(...params: unknown[]): unknown[][];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

interface BunTransaction<T> {
  (...args: unknown[]): T;
  deferred(...args: unknown[]): T;
  immediate(...args: unknown[]): T;
  exclusive(...args: unknown[]): T;
}

interface BunDatabase {
  prepare(sql: string): BunStatement;
  exec(sql: string): void;
  transaction<T>(fn: (...args: unknown[]) => T): BunTransaction<T>;
  close(): void;
  readonly inTransaction: boolean;
}

type BunDatabaseClass = new (
  path: string,
  options: { readonly?: boolean; create?: boolean; readwrite?: boolean; strict?: boolean },
) => BunDatabase;

export interface BunSqliteOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** Busy timeout in ms; better-sqlite3's default is 5000. */
  timeout?: number;
  /** Accepted for signature compatibility; there is no addon under Bun. */
  nativeBinding?: string;
}

/** better-sqlite3 spreads an array argument as positional parameters; bun:sqlite takes them spread. */
export function bindArgs(params: unknown[]): unknown[] {
  return params.length === 1 && Array.isArray(params[0]) ? params[0] : params;
}

class BunCompatStatement {
  private plucked = false;

  constructor(private readonly statement: BunStatement) {}

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  get(...params: unknown[]): unknown {
    if (this.plucked) return this.statement.values(...bindArgs(params))[0]?.[0];
    // better-sqlite3 answers a missing row with undefined, bun:sqlite with null.
    return this.statement.get(...bindArgs(params)) ?? undefined;
  }

  all(...params: unknown[]): unknown[] {
    if (this.plucked) return this.statement.values(...bindArgs(params)).map((row) => row[0]);
    return this.statement.all(...bindArgs(params));
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    if (this.plucked) {
      yield* this.statement.values(...bindArgs(params)).map((row) => row[0]);
      return;
    }
    yield* this.statement.iterate(...bindArgs(params));
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const { changes, lastInsertRowid } = this.statement.run(...bindArgs(params));
    return { changes, lastInsertRowid };
  }
}

export class BunCompatDatabase {
  open = true;
  private readonly db: BunDatabase;

  constructor(path: string, options: BunSqliteOptions = {}) {
    const require = createRequire(import.meta.url);
    const { Database } = require('bun:sqlite') as { Database: BunDatabaseClass };
    const create = !options.readonly && !options.fileMustExist;
    // strict: named parameters bind from plain keys ({ id }) as better-sqlite3 does for `@id`.
    this.db = new Database(
      path,
      options.readonly
        ? { readonly: true, strict: true }
        : { create, readwrite: true, strict: true },
    );
    this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.timeout ?? 5000))}`);
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  prepare(sql: string): BunCompatStatement {
    return new BunCompatStatement(this.db.prepare(sql));
  }

  exec(sql: string): this {
    this.db.exec(sql);
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.db.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.values()[0]?.[0] : statement.all();
  }

  transaction<T>(fn: (...args: unknown[]) => T): BunTransaction<T> {
    return this.db.transaction(fn);
  }

  close(): this {
    if (this.open) this.db.close();
    this.open = false;
    return this;
  }
}

/** True inside Bun (e.g. a harness plugin), where better-sqlite3 cannot load. */
export function runningInBun(): boolean {
  return typeof process.versions.bun === 'string';
}
