import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// A CLI bundle hands the loader its own copy of better-sqlite3's JavaScript
// (useBundledBetterSqlite3). The loader remembers the driver it loaded, so
// each test imports a fresh copy of the module.
const installed = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const installedVersion = (
  createRequire(import.meta.url)('better-sqlite3/package.json') as { version: string }
).version;

async function freshDriver() {
  vi.resetModules();
  return import('./sqlite-driver');
}

/** A stand-in for the bundled copy that counts its loads and opens with the real addon. */
function copy(version: string) {
  const counted = {
    loads: 0,
    version,
    load: () => {
      counted.loads += 1;
      return installed;
    },
  };
  return counted;
}

describe('a bundle’s copy of better-sqlite3', () => {
  beforeEach(() => {
    vi.stubEnv('CAIRN_SQLITE_DRIVER', 'better-sqlite3');
    vi.stubEnv('CAIRN_SQLITE_BINDING', '');
    vi.stubEnv('CAIRN_TEST_HIDE_BETTER_SQLITE3', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('opens the databases when the installed package is the same version', async () => {
    const driver = await freshDriver();
    const bundled = copy(installedVersion);
    driver.useBundledBetterSqlite3(bundled);
    const db = driver.openSqlite(':memory:', 'a test');
    try {
      expect(db.prepare('SELECT 41 + 1 AS answer').pluck().get()).toBe(42);
    } finally {
      db.close();
    }
    expect(bundled.loads).toBe(1);
    expect(driver.usingBundledBetterSqlite3()).toBe(true);
  });

  it('is left aside for the installed one when the versions differ', async () => {
    const driver = await freshDriver();
    const bundled = copy('0.0.1-not-installed');
    driver.useBundledBetterSqlite3(bundled);
    expect(driver.sqliteDriverProblem()).toBeUndefined();
    expect(bundled.loads).toBe(0);
    expect(driver.usingBundledBetterSqlite3()).toBe(false);
  });

  it('is left aside for an addon named by CAIRN_SQLITE_BINDING (built from another version, maybe)', async () => {
    const addon = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
    vi.stubEnv(
      'CAIRN_SQLITE_BINDING',
      addon.replace(/package\.json$/, 'build/Release/better_sqlite3.node'),
    );
    const driver = await freshDriver();
    const bundled = copy(installedVersion);
    driver.useBundledBetterSqlite3(bundled);
    expect(driver.sqliteDriverProblem()).toBeUndefined();
    expect(bundled.loads).toBe(0);
  });

  it('does not stand in for a package that is not installed', async () => {
    vi.stubEnv('CAIRN_TEST_HIDE_BETTER_SQLITE3', '1');
    const driver = await freshDriver();
    const bundled = copy(installedVersion);
    driver.useBundledBetterSqlite3(bundled);
    expect(driver.sqliteDriverProblem()).toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    expect(bundled.loads).toBe(0);
  });
});
