/** Backup and restore of a project's memory and state (`cairn export`, `cairn import`). */
export { exportProject } from './export-project';
export { importProject } from './import-project';
