export {
  type BundledBetterSqlite3,
  isDamagedDatabase,
  loadSqlite,
  openSqlite,
  SQLITE_DRIVER_FIX,
  type SqliteDatabase,
  type SqliteOpenOptions,
  type SqliteStatement,
  sqliteDriverName,
  sqliteDriverProblem,
  useBundledBetterSqlite3,
  usingBundledBetterSqlite3,
} from './sqlite-driver';
export { settleWriteAheadLogs } from './write-ahead-logs';
