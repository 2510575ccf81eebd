import { createHash } from 'node:crypto';

/** The UUID namespace of Cairn chunk ids (a fixed random UUID; never change it). */
export const CHUNK_ID_NAMESPACE = '4c0b6f9e-52a1-4d6e-9a57-0f3c2b8e71d4';

/** A name-based UUID (RFC 9562 version 5: SHA-1 of the namespace bytes and the name). */
export function uuidV5(name: string, namespace: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The Qdrant point id of a chunk. Point ids must be unsigned integers or
 * UUIDs; deriving them from the chunk id makes upserts idempotent and lets
 * a refresh delete a stale chunk without asking the server for its id.
 */
export function pointIdOf(chunkId: string): string {
  return uuidV5(chunkId, CHUNK_ID_NAMESPACE);
}
