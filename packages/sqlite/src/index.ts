export {
  isDamagedDatabase,
  loadSqlite,
  openSqlite,
  SQLITE_DRIVER_FIX,
  type SqliteDatabase,
  type SqliteOpenOptions,
  type SqliteStatement,
  sqliteDriverProblem,
} from './sqlite-driver';
