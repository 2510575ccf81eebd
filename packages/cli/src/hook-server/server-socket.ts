import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isPrivateDir, privateDir, userCacheDir } from '../private-dir';

/*
 * Where the hook server lives: its socket and its key, in a folder of the
 * user's that only the user can enter.
 */

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

/*
 * The hook server's key: 32 random bytes in a 0600 file of the user's, in
 * the private socket folder (above). A hook client sends the
 * request (which holds the environment, folder and prompt) only to a
 * server that proves it knows this key (hook-protocol.ts), so a process
 * listening on the socket path that is not the user's own server gets
 * nothing. One key serves every server of that folder; delete the file to
 * change it (the next server makes another).
 */

export const KEY_FILE = 'server.key';

const FORMAT = /^cairn-hook-server-key v1 ([0-9a-f]{64})\n$/;
const SIZE = 'cairn-hook-server-key v1 \n'.length + 64;

/**
 * The key kept in `dir`, or undefined when there is none, or the file is
 * not one: a link, not a regular file, not this user's, open to group or
 * others, or any other content (so no other file of the user's, an empty
 * marker say, can stand in for it).
 */
export function readServerKey(dir: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(
      join(dir, KEY_FILE),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size !== SIZE || (info.mode & 0o077) !== 0) return undefined;
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) return undefined;
    const bytes = Buffer.alloc(SIZE + 1);
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    const match = FORMAT.exec(bytes.toString('latin1', 0, read));
    return match?.[1] ? Buffer.from(match[1], 'hex') : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes a new key to a private temp file and links it into place: no one sees it half written. */
function createKey(dir: string, random: (size: number) => Buffer): void {
  const temp = join(dir, `.${KEY_FILE}.${random(8).toString('hex')}.tmp`);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, `cairn-hook-server-key v1 ${random(32).toString('hex')}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, join(dir, KEY_FILE));
  } catch (error) {
    // Another server made one first: that one is used.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * The server's key (made when missing): `dir` is the private socket
 * folder. A file in its place that is not a key is replaced. Undefined
 * when none can be made there (the server then does not start).
 */
export function ensureServerKey(dir: string, random: (size: number) => Buffer): Buffer | undefined {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const key = readServerKey(dir);
    if (key) return key;
    try {
      if (lstatSync(join(dir, KEY_FILE), { throwIfNoEntry: false })) {
        unlinkSync(join(dir, KEY_FILE));
      }
      createKey(dir, random);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
