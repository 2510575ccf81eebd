import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How qmd is started: a program and the arguments that come before qmd's own. */
export type QmdCommand = readonly [string, ...string[]];

/** What users install: qmd 2 needs Node >= 22. */
export const QMD_PACKAGE = '@tobilu/qmd';
export const QMD_INSTALL_COMMAND = 'npm i -g @tobilu/qmd';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH (with PATHEXT suffixes on Windows), if any. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  const suffixes =
    process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const suffix of suffixes) {
      const candidate = join(dir, `${name}${suffix}`);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The command to run: the configured one, else `qmd` on PATH. Undefined
 * when neither exists; search then falls back to the file index.
 */
export function resolveQmdCommand(
  configured: readonly string[] | undefined,
  path?: string,
): QmdCommand | undefined {
  if (configured && configured.length > 0) return configured as unknown as QmdCommand;
  const found = findOnPath('qmd', path);
  return found ? [found] : undefined;
}

/** The CLI entry of the qmd package installed next to this one (a devDependency). */
export function findBundledQmdEntry(from = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (;;) {
    const entry = join(dir, 'node_modules', '@tobilu', 'qmd', 'dist', 'cli', 'qmd.js');
    if (existsSync(entry)) return entry;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The development copy of qmd run by the Node 24 binary of `@cairn/node24`
 * (both devDependencies of this package): for tests and the bench only.
 * Users install qmd globally under Node >= 22 and need none of this.
 * Undefined when either piece is not installed.
 */
export async function findDevQmdCommand(): Promise<QmdCommand | undefined> {
  const entry = findBundledQmdEntry();
  if (!entry) return undefined;
  const specifier = '@cairn/node24';
  try {
    const mod = (await import(specifier)) as { node24Path?: () => string | undefined };
    const node = mod.node24Path?.();
    return node ? [node, entry] : undefined;
  } catch {
    return undefined;
  }
}
