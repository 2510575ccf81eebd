import { SQLITE_DRIVER_FIX, sqliteDriverName } from '@cairn/sqlite';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { databaseFindings, sqliteDriverFinding } from './database-checks';

// Where node:sqlite stands in (Node 22.16 and later) there is always a driver.
const builtin = sqliteDriverName() === 'node';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
  // Makes the loader's require of better-sqlite3 fail, as when npm skipped
  // the optional dependency after a failed native build (tests only).
  vi.stubEnv('CAIRN_TEST_HIDE_BETTER_SQLITE3', '1');
  vi.stubEnv('CAIRN_SQLITE_DRIVER', '');
  vi.stubEnv('CAIRN_SQLITE_BINDING', '');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await project.cleanup();
});

describe.skipIf(builtin)('doctor without a SQLite driver (Node < 22.16, no better-sqlite3)', () => {
  it('one error finding that names the fix, instead of a load error per database', () => {
    const finding = sqliteDriverFinding();
    expect(finding).toMatchObject({
      severity: 'error',
      area: 'database',
      fix: SQLITE_DRIVER_FIX,
    });
    expect(finding?.message).toContain(`Node ${process.versions.node}`);
    expect(finding?.message).not.toContain(SQLITE_DRIVER_FIX);
    expect(databaseFindings(project.root)).toEqual([finding]);
  });
});
