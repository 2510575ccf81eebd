import type * as NodeCrypto from 'node:crypto';

/**
 * `node:crypto`, loaded on first use. Importing it at the top of a module
 * loads about twenty internal modules (4-5 ms of every short CLI or hook
 * process), while most runs (a search, a session-start hook) never hash or
 * draw a random id. `process.getBuiltinModule` (Node >= 20.16) loads it
 * synchronously when a caller first needs it.
 */
export function nodeCrypto(): typeof NodeCrypto {
  return process.getBuiltinModule('node:crypto');
}

/** The SHA-256 of `data` as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}

/** A random v4 UUID. */
export function randomUuid(): string {
  return nodeCrypto().randomUUID();
}
