/**
 * A backend Cairn ships as an optional package, as its package.json
 * declares it (`cairn.backend`): the engine imports it on first use and
 * registers its index, from which each project builds its own instances.
 */
export interface BackendPackage {
  /** The id settings use (`memoryBackendType`, `retrievalAdapter`): the package's folder. */
  id: string;
  /** The npm package to import. */
  package: string;
  /** The export that is its index registration (a factory per project, never an instance). */
  index: string;
  /** The export that lists which of its options need trust, if any. */
  optionTrust?: string;
}
