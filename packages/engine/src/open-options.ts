import type { CairnSettingsOverrides, ResolvedSettings } from '@cairn/core';

/** How a project is opened (openCairn, openMemorySearch). */
export interface OpenCairnOptions {
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  overrides?: CairnSettingsOverrides;
  /** The clock for timestamps and daily file names; tests pin it. */
  now?: () => Date;
  /**
   * The settings this process has just resolved for the same project and
   * options (a host that keys its open projects by them, the lifecycle
   * host): opening uses them instead of reading the config files again.
   */
  resolvedSettings?: ResolvedSettings;
  /**
   * Starts a due insight extraction run without waiting for it (checked at
   * session end). Default: in this process, in the background. A process
   * that exits once it has answered (a hook) starts `cairn insights run
   * --if-due` detached instead.
   */
  scheduleMaintenance?: (rootDir: string) => void;
}
