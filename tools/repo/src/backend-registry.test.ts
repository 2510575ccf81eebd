import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BACKEND_REGISTRY_FILE,
  backendRegistrySource,
  optionalBackendPackages,
} from './backend-registry';
import { importPackage, packageFolders, REPO_ROOT } from './workspace-packages';

/*
 * The engine finds an optional backend's exports through a registry
 * generated from the backends' package.json files (`cairn.backend`), not
 * by building export names. These tests keep the generated file equal to
 * the manifests and each manifest true to its package's exports.
 */

describe('generated backend registry', () => {
  it('matches the manifests (run `pnpm docs:gen` after changing one)', () => {
    const committed = readFileSync(join(REPO_ROOT, BACKEND_REGISTRY_FILE), 'utf8');
    expect(committed).toBe(backendRegistrySource());
  });

  it('lists every backend the engine does not import itself', () => {
    const builtin = ['file', 'readonly'];
    const listed = optionalBackendPackages().map((entry) => entry.id);
    const folders = packageFolders('backends').map((folder) => folder.id);
    expect(listed).toEqual(folders.filter((id) => !builtin.includes(id)));
  });

  describe.each(optionalBackendPackages().map((entry) => [entry.id, entry] as const))(
    '%s',
    (id, entry) => {
      it('exports the index registration and option trust its manifest names', async () => {
        const mod = await importPackage(entry.package);
        const index = mod[entry.index] as { type?: unknown; create?: unknown };
        expect(index.type).toBe(id);
        expect(typeof index.create).toBe('function');
        if (entry.optionTrust) expect(typeof mod[entry.optionTrust]).toBe('object');
      });
    },
  );
});
