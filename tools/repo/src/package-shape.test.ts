import { HARNESS_EVENTS, type HarnessDeclaration } from '@cairn/core';
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

describe('harness package shape', () => {
  const folders = packageFolders('harnesses');

  it('finds the four harnesses', () => {
    expect(folders.map((f) => f.id)).toEqual(['claude-code', 'codex', 'openclaw', 'opencode']);
  });

  describe.each(folders.map((folder) => [folder.id, folder] as const))(
    'harnesses/%s',
    (id, folder) => {
      it('is named @cairn/harness-<folder> and peers on @cairn/core', () => {
        expect(folder.manifest.name).toBe(`@cairn/harness-${id}`);
        expect(folder.manifest.peerDependencies?.['@cairn/core']).toBeDefined();
      });

      it(`exports create${pascalCase(id)}Harness, ${camelCase(id)}Fidelity and VERSION`, async () => {
        const mod = await importPackage(folder.manifest.name);
        const declaration = mod[`${camelCase(id)}Fidelity`] as HarnessDeclaration;
        expect(declaration.id).toBe(id);
        expect(Object.keys(declaration.events).sort()).toEqual([...HARNESS_EVENTS].sort());
        expect(mod.VERSION).toBe(folder.manifest.version);
        const create = mod[`create${pascalCase(id)}Harness`] as () => { declaration: unknown };
        expect(create().declaration).toEqual(declaration);
      });

      it('declares the harness version pinned in its devDependencies', async () => {
        const mod = await importPackage(folder.manifest.name);
        const fidelity = mod[`${camelCase(id)}Fidelity`] as HarnessDeclaration;
        expect(folder.manifest.devDependencies?.[fidelity.harnessPackage]).toBe(
          fidelity.checkedVersion,
        );
      });
    },
  );
});

describe('generated docs', () => {
  it('match the declarations (run `pnpm docs:gen` after changing one)', async () => {
    expect(await staleDocs()).toEqual([]);
  });
});
