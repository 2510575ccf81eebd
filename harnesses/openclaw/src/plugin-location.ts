import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The plugin id (openclaw.plugin.json), also the name of Cairn's MCP server in openclaw.json. */
export const PLUGIN_ID = 'cairn';
const PACKAGE_NAME = '@cairn/harness-openclaw';

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why OpenClaw could not load a plugin from `dir`, or undefined when it can:
 * an `openclaw.plugin.json` with Cairn's id, and a package.json whose
 * `openclaw.extensions` files all exist.
 */
export function pluginProblem(dir: string): string | undefined {
  const manifest = readJson(join(dir, 'openclaw.plugin.json'));
  if (!manifest) return `${dir} holds no readable openclaw.plugin.json`;
  if (manifest.id !== PLUGIN_ID) return `${dir}/openclaw.plugin.json has id ${String(manifest.id)}`;
  const pkg = readJson(join(dir, 'package.json'));
  const openclaw = pkg?.openclaw as { extensions?: unknown } | undefined;
  const extensions = Array.isArray(openclaw?.extensions) ? openclaw.extensions : [];
  if (extensions.length === 0) return `${dir}/package.json lists no openclaw.extensions`;
  const absent = extensions.filter(
    (entry) => typeof entry !== 'string' || !existsSync(resolve(dir, entry)),
  );
  if (absent.length > 0) return `${dir} lacks the plugin entry ${absent.join(', ')} (not built?)`;
  return undefined;
}

/** Whether `dir` is one of Cairn's package folders (a plugin path an older install wrote). */
export function isCairnPackageDir(dir: string): boolean {
  const name = readJson(join(dir, 'package.json'))?.name;
  return name === PACKAGE_NAME || name === '@cairn/cli';
}

/**
 * This package's folder, which OpenClaw loads the plugin from
 * (`plugins.load.paths`). Resolved through the module system, because the
 * `cairn` binary bundles this code: there `import.meta.url` is the CLI's
 * own file, whose folder holds no plugin.
 */
export function pluginDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  try {
    const pkg = createRequire(join(here, 'noop.js')).resolve(`${PACKAGE_NAME}/package.json`);
    return realpathSync(dirname(pkg));
  } catch {
    // Not resolvable by name (a copied folder): src/ in tests, dist/ once built.
    return resolve(here, '..');
  }
}
