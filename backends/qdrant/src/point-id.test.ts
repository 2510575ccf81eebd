import { describe, expect, it } from 'vitest';
import { pointIdOf, uuidV5 } from './point-id';
import { chunkKey } from './qdrant-payload';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('point ids', () => {
  it('implements RFC 9562 version 5 (the published DNS example)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('derives a stable UUID from a chunk id (fixed across releases)', () => {
    const key = chunkKey(
      { namespace: 'default', repo: 'app', pool: 'workspace' },
      'MEMORY.md#L1-L3',
    );
    expect(key).toBe('default/app/workspace:MEMORY.md#L1-L3');
    expect(pointIdOf(key)).toMatch(UUID_V5);
    // Changing this value orphans every point already stored: a rebuild would be needed.
    expect(pointIdOf(key)).toBe(pointIdOf('default/app/workspace:MEMORY.md#L1-L3'));
    expect(pointIdOf(key)).toMatchInlineSnapshot(`"ddd9dfcd-b9df-592a-838b-0052782dffa2"`);
  });

  it('gives distinct ids to the same chunk in another pool, repo or namespace', () => {
    const chunk = 'MEMORY.md#UNIT:00000000-0000-4000-8000-000000000001';
    const ids = [
      chunkKey({ namespace: 'default', repo: 'app', pool: 'workspace' }, chunk),
      chunkKey({ namespace: 'default', repo: 'app', pool: 'warm' }, chunk),
      chunkKey({ namespace: 'default', repo: 'api', pool: 'workspace' }, chunk),
      chunkKey({ namespace: 'team', repo: 'app', pool: 'workspace' }, chunk),
    ].map(pointIdOf);
    expect(new Set(ids).size).toBe(4);
  });
});
