import type { CairnSettingsOverrides } from '@cairn/core';

/** How a project is opened (openCairn, openMemorySearch). */
export interface OpenCairnOptions {
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  overrides?: CairnSettingsOverrides;
  /** The clock for timestamps and daily file names; tests pin it. */
  now?: () => Date;
}
