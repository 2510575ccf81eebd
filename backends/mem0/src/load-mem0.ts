import { MemoryBackendError } from '@cairn/core';

export type Mem0OssModule = typeof import('mem0ai/oss');
export type Mem0ClientModule = typeof import('mem0ai');
export type Mem0Entry = 'mem0ai/oss' | 'mem0ai';

/** Imports one of mem0ai's entry points; tests pass one that fails to simulate a missing install. */
export type Mem0ModuleLoader = (entry: Mem0Entry) => Promise<unknown>;

/** What a user runs to get the optional package back (and the SQLite driver its OSS store needs). */
export const MEM0_INSTALL_COMMAND = 'pnpm add mem0ai better-sqlite3';

const importEntry: Mem0ModuleLoader = (entry) =>
  entry === 'mem0ai/oss' ? import('mem0ai/oss') : import('mem0ai');

/**
 * Mem0 reads MEM0_TELEMETRY once, when its module loads, and sends events to
 * PostHog unless it is "false"; so it is set before the first import.
 */
export function prepareMem0Environment(telemetry: boolean): void {
  if (!telemetry) process.env.MEM0_TELEMETRY = 'false';
}

/**
 * Loads a mem0ai entry lazily (hooks and commands that never search must not
 * pay for it), or throws BACKEND_UNAVAILABLE naming the install command.
 */
export async function loadMem0<E extends Mem0Entry>(
  entry: E,
  options: { telemetry: boolean; loader?: Mem0ModuleLoader | undefined },
): Promise<E extends 'mem0ai/oss' ? Mem0OssModule : Mem0ClientModule> {
  prepareMem0Environment(options.telemetry);
  try {
    return (await (options.loader ?? importEntry)(entry)) as never;
  } catch (error) {
    throw new MemoryBackendError(
      'BACKEND_UNAVAILABLE',
      'mem0',
      `The optional package mem0ai (${entry}) could not be loaded`,
      {
        cause: error,
        hint: `install it with \`${MEM0_INSTALL_COMMAND}\` (npm: \`npm i mem0ai better-sqlite3\`), or set memoryBackendType / retrievalAdapter back to "file"`,
        details: { package: 'mem0ai', entry },
      },
    );
  }
}
