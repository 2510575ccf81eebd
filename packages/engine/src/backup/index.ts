export {
  ARCHIVE_DATABASES,
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveDatabase,
  type ArchiveHeader,
} from './archive-records';
export { ARCHIVE_TABLES, SCHEMA_VERSIONS, type TableSpec } from './archive-tables';
export { type ExportResult, exportProject } from './export-project';
export { type ImportResult, importProject } from './import-project';
export type { TableMerge } from './merge-database';
