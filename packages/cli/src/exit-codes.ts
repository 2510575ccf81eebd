import { CairnError } from '@cairn/core';

/** Documented in docs/CLI.md; scripts may rely on them. */
export const EXIT = {
  OK: 0,
  /** The memory operation failed (I/O, read-only backend, not found, ...). */
  FAILED: 1,
  /** Bad command line or bad input (unknown flag, invalid path or value). */
  USAGE: 2,
  /** A config file or CAIRN_* variable is invalid. */
  CONFIG: 3,
  /** A bug in Cairn. */
  INTERNAL: 70,
} as const;

export function exitCodeFor(error: unknown): number {
  if (!CairnError.isInstance(error)) return EXIT.INTERNAL;
  switch (error.code) {
    case 'INVALID_CONFIG':
      return EXIT.CONFIG;
    case 'INVALID_INPUT':
    case 'INVALID_PATH':
      return EXIT.USAGE;
    case 'INTERNAL':
      return EXIT.INTERNAL;
    default:
      return EXIT.FAILED;
  }
}
