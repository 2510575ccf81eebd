export type ModuleImporter = (specifier: string) => Promise<unknown>;

const ownImport: ModuleImporter = (specifier) => import(specifier);
let importer: ModuleImporter = ownImport;

/**
 * Hosts that cannot run `import()` themselves (the CLI's code-cached
 * CommonJS bundle on Node 20) hand over an importer from an ES module.
 */
export function setModuleImporter(next: ModuleImporter): void {
  importer = next;
}

/** `import()` through the host's importer (see setModuleImporter). */
export function importOptionalModule(specifier: string): Promise<unknown> {
  return importer(specifier);
}

/**
 * One of the engine's own dependencies (the tokenizer): through the host's
 * importer, which a host that resolves from its own folder (the bench, a
 * plugin host) may not find it from, then from the engine itself.
 */
export async function importEngineDependency(specifier: string): Promise<unknown> {
  try {
    return await importer(specifier);
  } catch (cause) {
    if (importer === ownImport) throw cause;
    return ownImport(specifier).catch(() => Promise.reject(cause));
  }
}
