/** Process plumbing every engine module may use: lazily loaded builtins and the host's module importer. */
export { importEngineDependency, importOptionalModule, setModuleImporter } from './module-importer';
export { childProcess } from './node-builtins';
