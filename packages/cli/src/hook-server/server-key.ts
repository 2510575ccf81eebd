import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/*
 * The hook server's key: 32 random bytes in a 0600 file of the user's, in
 * the private socket folder (server-socket.ts). A hook client sends the
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
