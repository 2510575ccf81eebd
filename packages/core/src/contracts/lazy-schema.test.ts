import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { CairnError } from '../errors';
import { lazySchema, parseInput } from './schemas';

describe('lazySchema', () => {
  it('builds the schema on first use, once, and parses as the schema itself', () => {
    let builds = 0;
    const key = lazySchema(() => {
      builds++;
      return z.string().check(z.minLength(1, 'key is required'), z.maxLength(5));
    });
    const object = lazySchema(() => z.object({ key, count: z._default(z.number(), 1) }));
    expect(builds).toBe(0);
    expect(parseInput(object, { key: 'abc' }, 'input')).toEqual({ key: 'abc', count: 1 });
    expect(z.safeParse(key, 'abcdef').success).toBe(false);
    expect(builds).toBe(1);
    const plain = z.object({ key: z.string().check(z.minLength(1, 'key is required')) });
    const messages = [object, plain].map((schema) => {
      try {
        parseInput(schema, { key: '' }, 'input');
        return undefined;
      } catch (error) {
        return CairnError.isInstance(error) ? error.message : String(error);
      }
    });
    expect(messages[0]).toContain('Invalid input: key: key is required');
    expect(messages[0]).toBe(messages[1]);
  });

  it('stands for the schema in type checks and methods', () => {
    const schema = lazySchema(() => z.enum(['a', 'b']));
    expect(schema instanceof z.ZodMiniEnum).toBe(true);
    expect(schema.options).toEqual(['a', 'b']);
    expect(schema.safeParse('a')).toEqual({ success: true, data: 'a' });
    expect('_zod' in schema).toBe(true);
  });
});
