import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEADS_MIGRATIONS, HeadStore } from './head-store';
import { migrate, openDatabase } from './sqlite';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

describe('heads.db migrations', () => {
  it('moves the injection claims of a version 2 file to a table without rowids, keeping every claim', () => {
    mkdirSync(cairnStatePath(project.root), { recursive: true });
    const path = join(cairnStatePath(project.root), 'heads.db');
    const old = openDatabase(path);
    // A version 2 file, as earlier releases wrote it, with one claim.
    migrate(old, HEADS_MIGRATIONS.slice(0, 2));
    old.exec("INSERT INTO injections VALUES ('claude', 's1', 0, 'UNIT:a')");
    old.close();
    const store = new HeadStore(project.root);
    const session = store.sessions.startSession({
      agentId: 'claude',
      sessionKey: 's1',
      threadKey: 'main',
      harness: null,
      cwd: null,
      startedAt: '2026-05-01T00:00:00.000Z',
    });
    // The claim made before the upgrade still holds: only UNIT:b is new.
    expect(store.sessions.claimInjections(session, ['UNIT:a', 'UNIT:b'])).toEqual(['UNIT:b']);
    store.close();
    const db = openDatabase(path);
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'injections'").get() as {
      sql: string;
    };
    db.close();
    expect(sql.sql).toMatch(/WITHOUT ROWID/);
  });
});
