import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  booleanOption,
  chunkOption,
  indexCommonOptions,
  invalidBackendOption,
  parseBackendOptions,
  repoOption,
} from './backend-options';

const invalid = invalidBackendOption('demo');
const parse = (schema: z.ZodMiniType, input: object) => parseBackendOptions(schema, input, invalid);

describe('shared backend option pieces', () => {
  const schema = z.strictObject({
    flag: booleanOption(true),
    repo: repoOption(),
    chunk: chunkOption(),
    small: chunkOption({ maxTokens: 100, overlapTokens: 15 }, 1000),
    ...indexCommonOptions(),
  });

  it('applies the defaults: core chunk sizing, 200 lines, no repo', () => {
    expect(parse(schema, {})).toEqual({
      flag: true,
      chunk: { maxTokens: 400, overlapTokens: 60 },
      small: { maxTokens: 100, overlapTokens: 15 },
      getMaxLines: 200,
    });
    expect(parse(schema, { chunk: { maxTokens: 64 } })).toMatchObject({
      chunk: { maxTokens: 64, overlapTokens: 60 },
    });
  });

  it('names the option and what was expected', () => {
    expect(() => parse(schema, { flag: 'yes' })).toThrow(
      'demo option: flag: expected true or false',
    );
    expect(() => parse(schema, { repo: 'has space' })).toThrow(/repo: expected a string matching/);
    expect(() => parse(schema, { chunk: { maxTokens: 8 } })).toThrow(
      'chunk.maxTokens: expected an integer of at least 16',
    );
    expect(() => parse(schema, { small: { overlapTokens: 5000 } })).toThrow(
      'small.overlapTokens: expected an integer from 0 to 1000',
    );
    expect(() => parse(schema, { getMaxLines: 0 })).toThrow(/getMaxLines/);
    expect(() => parse(schema, { onWarning: 'log' })).toThrow('onWarning: expected a function');
  });

  it('bounds getMaxLines only when asked', () => {
    const bounded = z.strictObject(indexCommonOptions(100_000));
    expect(() => parse(bounded, { getMaxLines: 100_001 })).toThrow(/from 1 to 100000/);
    expect(parse(z.strictObject(indexCommonOptions()), { getMaxLines: 100_001 })).toEqual({
      getMaxLines: 100_001,
    });
  });
});
