import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPrivateDir, privateDir, userCacheDir } from '../private-dir';

/** `CAIRN_HOOK_SERVER`: the hook server is on unless this says otherwise. */
export function hookServerEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env.CAIRN_HOOK_SERVER?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}

/** What a process decides once, at load, and a server must share with its clients. */
const PROCESS_ENV = [
  'CAIRN_SQLITE_DRIVER',
  'CAIRN_SQLITE_BINDING',
  'CAIRN_TEST_HIDE_BETTER_SQLITE3',
];

/** Unix socket paths longer than this do not fit `sun_path` (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100;

/** FNV-1a, 53 bits: names a socket, nothing more (loading node:crypto costs a hook ~5 ms). */
function shortHash(text: string): string {
  let high = 0x811c9dc5;
  let low = 0x01000193;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    high = Math.imul(high ^ code, 0x01000193) >>> 0;
    low = Math.imul(low ^ (code + i), 0x01000193) >>> 0;
  }
  return `${high.toString(16).padStart(8, '0')}${(low & 0x1fffff).toString(16).padStart(6, '0')}`;
}

function existingPrivateDir(env: NodeJS.ProcessEnv): string | undefined {
  const dir = join(userCacheDir(env), 'hooks');
  try {
    return isPrivateDir(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The socket of the hook server for this build of the CLI (`bundleDir`
 * holds hook-main.cjs and the sha256 the build recorded for it), this Node,
 * and this user's cache folder: `$XDG_CACHE_HOME/cairn/hooks/<key>.sock`,
 * in a folder only this user can enter. Another build or Node version has
 * a server of its own. Undefined where there is none: the server is off
 * (`CAIRN_HOOK_SERVER=off`), Windows, no private folder, or a path too long.
 * The folder is made when missing, unless `create` is false (the server:
 * a folder gone since the hook that started it made it is a wiped cache,
 * which a server must not bring back).
 */
export function hookServerSocket(
  env: NodeJS.ProcessEnv,
  bundleDir: string,
  create = true,
): string | undefined {
  if (!hookServerEnabled(env) || process.platform === 'win32') return undefined;
  let build: string;
  try {
    build = readFileSync(join(bundleDir, 'hook-main.cjs.sha256'), 'latin1').trim();
  } catch {
    return undefined;
  }
  const dir = create ? privateDir(join(userCacheDir(env), 'hooks')) : existingPrivateDir(env);
  if (!dir) return undefined;
  const processEnv = PROCESS_ENV.map((name) => `${name}=${env[name] ?? ''}`).join('\n');
  const key = shortHash(`${build}\n${process.version}\n${process.arch}\n${processEnv}`);
  const socket = join(dir, `${key}.sock`);
  return socket.length <= MAX_SOCKET_PATH ? socket : undefined;
}
