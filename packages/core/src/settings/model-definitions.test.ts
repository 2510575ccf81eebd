import { describe, expect, it } from 'vitest';
import { parseInput } from '../contracts/schemas';
import { embedderSettingsSchema, MODEL_SETTING_DEFINITIONS } from './model-definitions';

describe('embedderSettingsSchema', () => {
  it('has the schema and the default of every embedder.* setting definition', () => {
    const parsed = parseInput(embedderSettingsSchema, {}, 'embedder settings');
    const definitions = MODEL_SETTING_DEFINITIONS.filter((d) => d.key.startsWith('embedder.'));
    expect(Object.keys(parsed).sort()).toEqual(
      definitions.map((d) => d.key.slice('embedder.'.length)).sort(),
    );
    for (const definition of definitions) {
      expect(parsed[definition.key.slice('embedder.'.length) as keyof typeof parsed]).toEqual(
        definition.defaultValue,
      );
    }
    expect(() => parseInput(embedderSettingsSchema, { dimensions: 8193 }, 'embedder')).toThrow(
      /dimensions/,
    );
  });
});
