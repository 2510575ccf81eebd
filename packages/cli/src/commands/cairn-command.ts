import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { InstallScope } from '@cairn/core';
import { VERSION } from '@cairn/engine';
import { currentCairnCommand } from './hook';

/** The first executable `name` on `PATH`, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // Not here: try the next folder.
    }
  }
  return undefined;
}

export interface InstallCommand {
  command: string[];
  /** Said in the install output when the command is not the plain `cairn`. */
  note?: string;
}

/**
 * What harness files run to start Cairn. Files a team commits (project
 * scope) name `cairn` and nothing machine-specific: `cairn` when it is on
 * PATH, else `npx -y @cairn/cli@<major>`. User-scope files may hold this
 * machine's Node and script when `cairn` is not on PATH.
 */
export function installCairnCommand(scope: InstallScope, env: NodeJS.ProcessEnv): InstallCommand {
  if (findOnPath('cairn', env)) return { command: ['cairn'] };
  if (scope === 'user') {
    const command = currentCairnCommand();
    return {
      command,
      note: `\`cairn\` is not on PATH: the hooks run ${command.join(' ')} (install @cairn/cli globally and run this again so a Node upgrade does not break them)`,
    };
  }
  const spec = `@cairn/cli@${VERSION.split('.')[0]}`;
  return {
    command: ['npx', '-y', spec],
    note: `\`cairn\` is not on PATH: the committed files run \`npx -y ${spec}\` (slower to start; install @cairn/cli globally and run this again to use \`cairn\`)`,
  };
}
