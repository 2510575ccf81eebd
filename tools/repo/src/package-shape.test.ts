import { describe, expect, it } from 'vitest';
import { staleDocs } from './generated-docs';
import { camelCase, importPackage, packageFolders, pascalCase } from './workspace-packages';

const CAPABILITY_KEYS = [
  'hasConflictResolution',
  'persistent',
  'readable',
  'supportsAtomicWrite',
  'writable',
];

describe('backend package shape', () => {
  const folders = packageFolders('backends');

  it('finds the backends', () => {
    expect(folders.map((f) => f.id)).toEqual(expect.arrayContaining(['file', 'readonly']));
  });

  describe.each(folders.map((folder) => [folder.id, folder] as const))(
    'backends/%s',
    (id, folder) => {
      it('is named @cairn/backend-<folder> and peers on @cairn/core', () => {
        expect(folder.manifest.name).toBe(`@cairn/backend-${id}`);
        expect(folder.manifest.peerDependencies?.['@cairn/core']).toBeDefined();
      });

      it(`exports create${pascalCase(id)}Backend, ${camelCase(id)}Capabilities and VERSION`, async () => {
        const mod = await importPackage(folder.manifest.name);
        const create = mod[`create${pascalCase(id)}Backend`];
        const capabilities = mod[`${camelCase(id)}Capabilities`] as Record<string, unknown>;
        expect(typeof create).toBe('function');
        expect(Object.keys(capabilities).sort()).toEqual(CAPABILITY_KEYS);
        for (const value of Object.values(capabilities)) expect(typeof value).toBe('boolean');
        expect(mod.VERSION).toBe(folder.manifest.version);
        const backend = (create as () => { type: string; capabilities: unknown })();
        expect(backend.type).toBe(id);
        expect(backend.capabilities).toEqual(capabilities);
      });
    },
  );
});

describe('generated docs', () => {
  it('match the declarations (run `pnpm docs:gen` after changing one)', async () => {
    expect(await staleDocs()).toEqual([]);
  });
});
