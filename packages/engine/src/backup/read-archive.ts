import { createHash } from 'node:crypto';
import { createReadStream, existsSync, promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import {
  CairnError,
  describeZodIssue,
  MEMORY_WORKSPACE_PATH,
  safeParse,
  validateWorkspacePath,
} from '@cairn/core';
import { type Database, openDatabase } from '../store';
import {
  type ArchiveDatabase,
  type ArchiveHeader,
  archiveHeaderSchema,
  archiveRecordSchema,
  decodeValue,
  MAX_ARCHIVE_LINE,
  type RowRecord,
} from './archive-records';
import { ARCHIVE_TABLES, migrateTo, SCHEMA_VERSIONS } from './archive-tables';
import { PROJECT_FILES } from './export-project';

const PASSED_THROUGH = new Set(['UNSUPPORTED', 'WRITE_FAILED', 'READ_FAILED']);

/** The files an archive holds in memory at most: the markdown of a project, not its history. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

/**
 * An archive read whole and checked: its files, and its rows in
 * databases of their own in a temporary folder, migrated to this Cairn's
 * schema. Nothing of the project was touched to make it.
 */
export interface StagedArchive {
  header: ArchiveHeader;
  files: { path: string; data: Buffer }[];
  databases: Map<ArchiveDatabase, Database>;
  /** Closes the staged databases and removes the temporary folder. */
  close(): Promise<void>;
}

/** A refused archive: what is wrong, and that nothing was imported. */
export function refusedArchive(path: string, reason: string, cause?: unknown): CairnError {
  return new CairnError('INVALID_INPUT', `Refused the archive ${path}: ${reason}`, {
    ...(cause ? { cause } : {}),
    hint: 'nothing was imported; use an archive `cairn export` wrote, whole (a copy cut short or edited is refused)',
    details: { path, reason },
  });
}

/** A file of the archive must be one an export writes: a workspace file or `.cairn/config.json`. */
function checkFilePath(path: string): void {
  if ((PROJECT_FILES as readonly string[]).includes(path)) return;
  const prefix = `${MEMORY_WORKSPACE_PATH}/`;
  if (!path.startsWith(prefix))
    throw new Error(`${JSON.stringify(path)} is not a file Cairn keeps`);
  validateWorkspacePath(path.slice(prefix.length));
}

const TABLES = Object.fromEntries(
  Object.entries(ARCHIVE_TABLES).map(([db, specs]) => [db, new Set(specs.map((s) => s.table))]),
) as Record<ArchiveDatabase, Set<string>>;

interface Stage {
  header?: ArchiveHeader;
  files: { path: string; data: Buffer }[];
  fileBytes: number;
  databases: Map<ArchiveDatabase, Database>;
  inserts: Map<string, { run(...values: unknown[]): unknown }>;
  ended: boolean;
}

function openStaged(stage: Stage, dir: string, header: ArchiveHeader): void {
  for (const [name, version] of Object.entries(header.schemas) as [ArchiveDatabase, number][]) {
    if (version > SCHEMA_VERSIONS[name]) {
      throw new CairnError(
        'UNSUPPORTED',
        `The archive's ${name} database has schema ${version}; this Cairn knows ${SCHEMA_VERSIONS[name]}`,
        {
          hint: 'import it with the newer Cairn that wrote it (upgrade: `npm i -g @cairn/cli`); nothing was imported',
        },
      );
    }
    const db = openDatabase(join(dir, `${name}.db`));
    stage.databases.set(name, db);
    migrateTo(name, db, version);
    db.exec('BEGIN');
  }
}

function stageRow(stage: Stage, record: RowRecord): void {
  const db = stage.databases.get(record.db);
  if (!db) throw new Error(`a row of ${record.db}, which the header does not list`);
  if (!TABLES[record.db].has(record.table))
    throw new Error(`a row of an unknown table ${record.table}`);
  const columns = Object.keys(record.row).sort();
  const key = `${record.db}.${record.table}(${columns.join(',')})`;
  let insert = stage.inserts.get(key);
  if (!insert) {
    insert = db.prepare(
      `INSERT INTO ${record.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    stage.inserts.set(key, insert);
  }
  insert.run(...columns.map((column) => decodeValue(record.row[column]!)));
}

/** One line after the header: a file, a row, or the trailer. */
function stageLine(stage: Stage, line: string, hash: { lines: number; sha: string }): void {
  const parsed = safeParse(archiveRecordSchema, JSON.parse(line));
  if (!parsed.success) {
    const { key, reason } = describeZodIssue(parsed.error);
    throw new Error(`line ${hash.lines + 1}: ${key}: ${reason}`);
  }
  const record = parsed.data;
  if (record.type === 'end') {
    if (record.lines !== hash.lines || record.sha256 !== hash.sha)
      throw new Error('its lines do not match its trailer (altered or cut)');
    stage.ended = true;
  } else if (record.type === 'file') {
    checkFilePath(record.path);
    if (stage.files.some((file) => file.path === record.path))
      throw new Error(`${record.path} is in it twice`);
    const data = Buffer.from(record.data, 'base64');
    stage.fileBytes += data.length;
    if (stage.fileBytes > MAX_FILE_BYTES) throw new Error('its files are larger than 512 MiB');
    stage.files.push({ path: record.path, data });
  } else {
    stageRow(stage, record);
  }
}

async function readLines(path: string, stage: Stage, dir: string): Promise<void> {
  const hash = createHash('sha256');
  let lines = 0;
  const input = createReadStream(path).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (stage.ended) throw new Error('it goes on after its trailer');
    if (line.length > MAX_ARCHIVE_LINE) throw new Error(`line ${lines + 1} is longer than 64 MiB`);
    if (lines === 0) {
      const header = safeParse(archiveHeaderSchema, JSON.parse(line));
      if (!header.success)
        throw new Error(`it is not a Cairn archive (${describeZodIssue(header.error).reason})`);
      stage.header = header.data;
      openStaged(stage, dir, header.data);
    } else {
      // The trailer hashes the lines before it; its own is checked against that.
      const sofar = { lines, sha: '' };
      if (line.startsWith('{"type":"end"')) sofar.sha = hash.copy().digest('hex');
      stageLine(stage, line, sofar);
    }
    hash.update(`${line}\n`);
    lines += 1;
  }
  if (!stage.header) throw new Error('it is empty');
  if (!stage.ended) throw new Error('it has no trailer (cut short)');
}

/**
 * Reads an archive whole before anything is imported: gzip, every line
 * against its schema, every file path against the workspace's rules, every
 * row into a staged database of the archive's schema (so a row of a
 * column or table that does not exist is refused), and the trailer's count
 * and hash. A damaged, cut, altered or foreign file is refused with
 * INVALID_INPUT, a newer schema with UNSUPPORTED; the staged databases are
 * then migrated to this Cairn's schema.
 */
export async function stageArchive(path: string): Promise<StagedArchive> {
  if (!existsSync(path)) {
    throw new CairnError('NOT_FOUND', `No archive at ${path}`, {
      hint: 'give the path `cairn export` wrote (`cairn import <file>`)',
    });
  }
  const dir = await fsp.mkdtemp(join(tmpdir(), 'cairn-import-'));
  const stage: Stage = {
    files: [],
    fileBytes: 0,
    databases: new Map(),
    inserts: new Map(),
    ended: false,
  };
  let closed = false;
  const close = async () => {
    if (!closed) for (const db of stage.databases.values()) db.close();
    closed = true;
    await fsp.rm(dir, { recursive: true, force: true });
  };
  try {
    await readLines(path, stage, dir);
    for (const [name, db] of stage.databases) {
      db.exec('COMMIT');
      migrateTo(name, db);
    }
  } catch (error) {
    await close();
    // A newer schema, or a temporary folder Cairn cannot write, is not a damaged archive.
    if (CairnError.isInstance(error) && PASSED_THROUGH.has(error.code)) throw error;
    throw refusedArchive(path, error instanceof Error ? error.message : String(error), error);
  }
  return { header: stage.header!, files: stage.files, databases: stage.databases, close };
}
