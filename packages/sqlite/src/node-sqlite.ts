import { existsSync } from 'node:fs';
import { bindArgs } from './bun-sqlite';

/**
 * Node's own SQLite (`node:sqlite`, complete enough from Node 22.16)
 * behind the better-sqlite3 shape the repo uses, the way
 * bun-sqlite.ts does for Bun: prepare/get/all/run/iterate/pluck, named
 * parameters, exec, pragma, transaction() with deferred/immediate/exclusive
 * (nested calls become savepoints, as in better-sqlite3), close, and the
 * `readonly`, `fileMustExist` and `timeout` options. Loading it costs a
 * fraction of a millisecond where the native addon costs several, which
 * matters to a CLI or hook that starts a process per call. Errors carry
 * better-sqlite3's `code` names (SQLITE_BUSY, SQLITE_CORRUPT, ...).
 */

interface NodeStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
  setAllowUnknownNamedParameters?(enabled: boolean): void;
}

interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
  readonly isTransaction: boolean;
}

type NodeDatabaseClass = new (path: string, options: { readOnly?: boolean }) => NodeDatabase;

export interface NodeSqliteOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** Busy timeout in ms; better-sqlite3's default is 5000. */
  timeout?: number;
  /** Accepted for signature compatibility; node:sqlite has no addon. */
  nativeBinding?: string;
}

const PRIMARY_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};

/** The extended codes the repo (or a user reading an error) tells apart. */
const EXTENDED_CODES: Record<number, string> = {
  261: 'SQLITE_BUSY_RECOVERY',
  517: 'SQLITE_BUSY_SNAPSHOT',
  773: 'SQLITE_BUSY_TIMEOUT',
  267: 'SQLITE_CORRUPT_VTAB',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
};

/** better-sqlite3's name for an SQLite (extended) result code. */
export function sqliteCodeName(errcode: number): string {
  return EXTENDED_CODES[errcode] ?? PRIMARY_CODES[errcode & 0xff] ?? `SQLITE_${errcode}`;
}

/** Gives a node:sqlite error better-sqlite3's `code` (its own is ERR_SQLITE_ERROR). */
function translated(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown })?.errcode;
  if (error instanceof Error && typeof errcode === 'number') {
    Object.defineProperty(error, 'code', { value: sqliteCodeName(errcode), configurable: true });
  }
  return error;
}

function call<T>(task: () => T): T {
  try {
    return task();
  } catch (error) {
    throw translated(error);
  }
}

/** The first column of a row object (node:sqlite keeps the SELECT's column order). */
const firstColumn = (row: unknown) =>
  row === undefined ? undefined : Object.values(row as object)[0];

class NodeCompatStatement {
  private plucked = false;

  constructor(private readonly statement: NodeStatement) {
    // better-sqlite3 ignores keys a statement does not use; node:sqlite throws.
    statement.setAllowUnknownNamedParameters?.(true);
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  get(...params: unknown[]): unknown {
    const row = call(() => this.statement.get(...bindArgs(params)));
    return this.plucked ? firstColumn(row) : row;
  }

  all(...params: unknown[]): unknown[] {
    const rows = call(() => this.statement.all(...bindArgs(params)));
    return this.plucked ? rows.map(firstColumn) : rows;
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    for (const row of call(() => this.statement.iterate(...bindArgs(params)))) {
      yield this.plucked ? firstColumn(row) : row;
    }
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const { changes, lastInsertRowid } = call(() => this.statement.run(...bindArgs(params)));
    return { changes: Number(changes), lastInsertRowid };
  }
}

type Transaction<T> = ((...args: unknown[]) => T) & {
  deferred(...args: unknown[]): T;
  immediate(...args: unknown[]): T;
  exclusive(...args: unknown[]): T;
};

export class NodeCompatDatabase {
  open = true;
  private readonly db: NodeDatabase;
  private savepoints = 0;

  constructor(path: string, options: NodeSqliteOptions = {}) {
    const sqlite = usableNodeSqlite();
    if (!sqlite) throw new Error('node:sqlite is not usable on this Node');
    if (options.fileMustExist && path !== ':memory:' && !existsSync(path)) {
      throw Object.assign(new Error(`unable to open database file: ${path} does not exist`), {
        code: 'SQLITE_CANTOPEN',
      });
    }
    this.db = call(() => new sqlite.DatabaseSync(path, { readOnly: options.readonly === true }));
    this.db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.timeout ?? 5000))}`);
  }

  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  prepare(sql: string): NodeCompatStatement {
    return new NodeCompatStatement(call(() => this.db.prepare(sql)));
  }

  exec(sql: string): this {
    call(() => this.db.exec(sql));
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    return options.simple ? statement.pluck().get() : statement.all();
  }

  transaction<T>(fn: (...args: unknown[]) => T): Transaction<T> {
    const begin =
      (mode: string) =>
      (...args: unknown[]) =>
        this.db.isTransaction ? this.inSavepoint(fn, args) : this.inTransactionOf(mode, fn, args);
    return Object.assign(begin('DEFERRED'), {
      deferred: begin('DEFERRED'),
      immediate: begin('IMMEDIATE'),
      exclusive: begin('EXCLUSIVE'),
    });
  }

  close(): this {
    if (this.open) this.db.close();
    this.open = false;
    return this;
  }

  private inTransactionOf<T>(mode: string, fn: (...args: unknown[]) => T, args: unknown[]): T {
    this.exec(`BEGIN ${mode}`);
    try {
      const result = fn(...args);
      this.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.exec('ROLLBACK');
      throw error;
    }
  }

  private inSavepoint<T>(fn: (...args: unknown[]) => T, args: unknown[]): T {
    const name = `cairn_savepoint_${++this.savepoints}`;
    this.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn(...args);
      this.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.exec(`ROLLBACK TO ${name}`);
      this.exec(`RELEASE ${name}`);
      throw error;
    } finally {
      this.savepoints--;
    }
  }
}

interface NodeSqliteModule {
  DatabaseSync: NodeDatabaseClass;
  StatementSync?: { prototype?: { setAllowUnknownNamedParameters?: unknown } };
}

/** Node 22 and 23 announce node:sqlite with an ExperimentalWarning on stderr, which is a hook's. */
function isSqliteWarning(warning: unknown, rest: unknown[]): boolean {
  const type =
    typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
  const name = (warning as { name?: unknown } | undefined)?.name;
  const text = String((warning as { message?: unknown } | undefined)?.message ?? warning);
  return (type === 'ExperimentalWarning' || name === 'ExperimentalWarning') && /sqlite/i.test(text);
}

/** node:sqlite, or undefined where Node has none (before 22.5, or without its flag). */
function loadNodeSqlite(): NodeSqliteModule | undefined {
  if (typeof process.getBuiltinModule !== 'function') return undefined;
  const original = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: unknown, ...rest: unknown[]) {
    if (isSqliteWarning(warning, rest)) return;
    return (original as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = original;
  }
}

/**
 * Whether a node:sqlite has what this wrapper needs: statements that
 * ignore unknown named parameters and a database that says whether it is
 * in a transaction (Node 22.16 and later; 22.5 to 22.15 lack them).
 */
export function nodeSqliteFits(sqlite: NodeSqliteModule): boolean {
  if (typeof sqlite.StatementSync?.prototype?.setAllowUnknownNamedParameters !== 'function') {
    return false;
  }
  const db = new sqlite.DatabaseSync(':memory:', {});
  try {
    return typeof db.isTransaction === 'boolean';
  } finally {
    db.close();
  }
}

/** undefined: not looked for yet; null: this Node has none Cairn can use. */
let usable: NodeSqliteModule | null | undefined;

function usableNodeSqlite(): NodeSqliteModule | null {
  if (usable !== undefined) return usable;
  const major = Number(process.versions.node.split('.')[0]);
  const sqlite = major >= 22 ? loadNodeSqlite() : undefined;
  usable = sqlite && (major >= 24 || nodeSqliteFits(sqlite)) ? sqlite : null;
  return usable;
}

/**
 * True when node:sqlite can stand in for better-sqlite3: Node 22.16 and
 * later (its ExperimentalWarning on Node 22 and 23 is kept off stderr).
 */
export function nodeSqliteUsable(): boolean {
  return usableNodeSqlite() !== null;
}
