import { describe, expect, it } from 'vitest';
import { importPackage, packageFolders } from './workspace-packages';

/*
 * Each scale-out backend exports its options schema (`<id>OptionsSchema`,
 * zod/mini) and its trust rules (`<id>OptionTrust`, docs/SECURITY.md). Every
 * option a config file can set has a trust rule, and every rule names an
 * option: an option added to the schema without deciding its trust fails here.
 */

/** Options that only code can pass (functions): no config file sets them. */
const CODE_ONLY = new Set(['onWarning', 'loadModules', 'loadClient']);
const WITH_OPTIONS = ['lancedb', 'mem0', 'qdrant', 'qmd'];

describe('backend options schemas', () => {
  it('cover the scale-out backends', () => {
    const ids = packageFolders('backends').map((pkg) => pkg.id);
    expect(ids).toEqual(expect.arrayContaining(WITH_OPTIONS));
  });

  describe.each(WITH_OPTIONS)('%s', (id) => {
    it('has a trust rule for every option a config file can set, and no other', async () => {
      const module = await importPackage(`@cairn/backend-${id}`);
      const schema = module[`${id}OptionsSchema`] as { _zod: { def: { shape: object } } };
      const trust = module[`${id}OptionTrust`] as Record<string, unknown>;
      const settable = Object.keys(schema._zod.def.shape).filter((key) => !CODE_ONLY.has(key));
      expect(Object.keys(trust).sort()).toEqual(settable.sort());
    });

    it('resolves no options to the defaults and refuses an unknown one', async () => {
      const module = await importPackage(`@cairn/backend-${id}`);
      const resolve = module[`resolve${id.charAt(0).toUpperCase()}${id.slice(1)}Options`] as (
        input: unknown,
      ) => Record<string, unknown>;
      expect(resolve({})).toMatchObject({ getMaxLines: 200 });
      expect(() => resolve({ notAnOption: 1 })).toThrow(/notAnOption.*unknown option/);
    });
  });
});
