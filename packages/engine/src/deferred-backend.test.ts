import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from './open-cairn';
import { setModuleImporter } from './optional-packages';

const LANCEDB_PACKAGE = '@cairn/backend-lancedb';

let project: TempProject;
let imported: string[];
beforeEach(async () => {
  project = await makeTempProject();
  imported = [];
  setModuleImporter(async (specifier) => {
    imported.push(specifier);
    throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
  });
});
afterEach(async () => {
  setModuleImporter((specifier) => import(specifier));
  await project.cleanup();
});

describe('a backend whose package loads on first use', () => {
  it('falls back to file on first use when the package is missing, says why, and still reindexes', async () => {
    const cairn = openCairn(project.root, {
      env: {},
      homeDir: join(project.root, 'home'),
      overrides: { memoryBackendType: 'lancedb' },
    });
    // Nothing imported yet: the backend stands for the configured type.
    expect(imported).toEqual([]);
    expect(cairn.backend.type).toBe('lancedb');
    expect(cairn.backend.capabilities.writable).toBe(true);
    expect(cairn.warnings).toEqual([]);

    await cairn.init();
    await cairn.write('# Memory\n\nThe release train leaves on Thursdays.\n');
    expect(imported).toEqual([LANCEDB_PACKAGE]);
    expect(cairn.backend.type).toBe('file');
    expect(cairn.warnings.join('\n')).toContain(`cannot load ${LANCEDB_PACKAGE}`);
    expect((await cairn.search({ query: 'release train' }))[0]?.snippet).toContain('Thursdays');
    expect((await cairn.reindex()).backend).toBe('file');
    expect((await cairn.status()).backend).toMatchObject({
      requested: 'lancedb',
      resolved: 'file',
    });
    expect(imported).toEqual([LANCEDB_PACKAGE]);
  });
});
