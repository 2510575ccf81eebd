// Run inside OpenCode's Bun (BUN_BE_BUN=1 opencode <this file> <tmpdir>) by
// src/bun-runtime.e2e.test.ts: the bun:sqlite stand-in for better-sqlite3
// covers the API the repo uses, and the engine works end to end on it.
// Prints one JSON object of results.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openCairn } from '@cairn/engine';

// @cairn/sqlite is the engine's dependency, not this package's.
const engineDir = dirname(dirname(fileURLToPath(import.meta.resolve('@cairn/engine'))));
const sqlite = join(engineDir, 'node_modules/@cairn/sqlite/dist/index.js');
const { isDamagedDatabase, loadSqlite } = await import(pathToFileURL(sqlite).href);

const dir = process.argv[2];
const out = { bun: process.versions.bun };
const Database = loadSqlite();
const db = new Database(join(dir, 'check.db'), { timeout: 1234 });
out.busyTimeout = db.pragma('busy_timeout', { simple: true });
out.journal = db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE u (x TEXT);');
out.returning = db.prepare('INSERT INTO t (name) VALUES (@name) RETURNING id').get({ name: 'a' });
out.run = db.prepare('INSERT INTO t (name) VALUES (?)').run('b');
out.pluckAll = db.prepare('SELECT name FROM t ORDER BY id').pluck().all();
out.pluckMissing = db.prepare('SELECT name FROM t WHERE id = ?').pluck().get(99) ?? 'undefined';
out.missing = db.prepare('SELECT * FROM t WHERE id = ?').get(99) ?? 'undefined';
out.iterate = [...db.prepare('SELECT id FROM t ORDER BY id').iterate()];
const insert = db.transaction((value) => db.prepare('INSERT INTO u VALUES (?)').run(value).changes);
out.transactions = [insert.immediate('x'), insert.deferred('y'), insert('z')];
try {
  db.transaction(() => {
    db.prepare('INSERT INTO u VALUES (?)').run('rolled back');
    throw new Error('boom');
  }).immediate();
} catch {}
out.afterRollback = db.prepare('SELECT count(*) FROM u').pluck().get();
db.pragma('user_version = 3');
out.userVersion = db.pragma('user_version', { simple: true });
try {
  db.prepare('INSERT INTO t (id, name) VALUES (1, ?)').run('dup');
} catch (error) {
  out.constraintCode = error.code;
}
db.close();
out.closed = db.open === false;
writeFileSync(join(dir, 'bad.db'), 'not a database '.repeat(200));
try {
  new Database(join(dir, 'bad.db')).prepare('SELECT * FROM sqlite_master').all();
} catch (error) {
  out.damaged = isDamagedDatabase(error);
}

const root = join(dir, 'project');
const cairn = await openCairn(root, { env: {} });
await cairn.init();
await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
const ids = { agentId: 'opencode', sessionKey: 'ses_bun' };
out.start = (await cairn.lifecycle.sessionStart({ ...ids, cwd: root })).inject;
// The pack is for what is relevant: the prompt that asks about the cluster brings the unit.
out.inject = (
  await cairn.lifecycle.userPromptSubmit({
    ...ids,
    prompt: 'Which staging cluster do we deploy to?',
  })
).inject;
const end = await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
out.summaryKind = cairn.expand(end.nodeId, 'opencode').node.kind;
out.search = (await cairn.search({ query: 'kestrel' })).length;
cairn.closeWorking();
console.log(JSON.stringify(out));
