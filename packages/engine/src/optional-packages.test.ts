import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getRetrievalAdapter, type MemoryRetrievalAdapter, resolveSettings } from '@cairn/core';
import {
  describeRetrievalAdapter,
  makeTempProject,
  type RetrievalFallbackOutcome,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from './open-cairn';
import { importEngineDependency, setModuleImporter } from './runtime';

const LANCEDB_PACKAGE = '@cairn/backend-lancedb';

/** What Node throws for a package that is not installed. */
function moduleNotFound(specifier: string): Error {
  const error = new Error(
    `Cannot find package '${specifier}' imported from /project/node_modules/@cairn/engine/dist/index.js`,
  );
  return Object.assign(error, { code: 'ERR_MODULE_NOT_FOUND' });
}

/**
 * Opens the project with `retrievalAdapter: "lancedb"` while the importer
 * reports the package missing, and returns what Cairn resolved instead.
 */
async function openWithoutLancedb(rootDir: string) {
  const imported: string[] = [];
  setModuleImporter(async (specifier) => {
    imported.push(specifier);
    throw moduleNotFound(specifier);
  });
  try {
    const options = {
      env: {},
      homeDir: join(rootDir, 'home'),
      overrides: { retrievalAdapter: 'lancedb' },
    };
    const cairn = await openCairn(rootDir, options);
    const status = await cairn.status();
    const registration = getRetrievalAdapter(status.retrievalAdapter.resolved)!;
    return { cairn, status, registration, imported };
  } finally {
    setModuleImporter((specifier) => import(specifier));
  }
}

async function fallbackOutcome(rootDir: string): Promise<RetrievalFallbackOutcome> {
  const { status, registration, cairn } = await openWithoutLancedb(rootDir);
  const adapter = registration.create({ rootDir });
  return {
    adapterId: status.retrievalAdapter.resolved,
    warnings: cairn.warnings,
    recall: (query) => adapter.recall(query),
  };
}

// The whole retrieval suite runs against what Cairn resolves when the configured package is missing.
describeRetrievalAdapter({
  name: `file, resolved when ${LANCEDB_PACKAGE} is missing`,
  capabilities: { semantic: false, keyword: true, graph: false },
  create: async (rootDir): Promise<MemoryRetrievalAdapter> =>
    (await openWithoutLancedb(rootDir)).registration.create({ rootDir }),
  fallback: { missingPackage: LANCEDB_PACKAGE, run: fallbackOutcome },
});

describe('openCairn with a missing optional package', () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await makeTempProject();
  });
  afterEach(() => project.cleanup());

  it('imports the configured package before it returns, resolves the file adapter and says why', async () => {
    const { status, cairn, imported } = await openWithoutLancedb(project.root);
    expect(imported).toEqual([LANCEDB_PACKAGE]);
    expect(status.retrievalAdapter).toMatchObject({ requested: 'lancedb', resolved: 'file' });
    const warning = cairn.warnings.find((w) => w.includes(`cannot load ${LANCEDB_PACKAGE}`));
    expect(warning).toContain(`npm i ${LANCEDB_PACKAGE}`);
    expect(warning).toContain('Cannot find package');
    // The storage side is untouched: the file backend still serves the project.
    expect(cairn.backend.type).toBe('file');
    await cairn.init();
    await cairn.write('# Memory\n\nStill writable.\n');
    expect((await cairn.read()).content).toContain('Still writable.');
  });

  it('settles the backend before it returns: the file fallback, named and explained, at once', async () => {
    const imported: string[] = [];
    setModuleImporter(async (specifier) => {
      imported.push(specifier);
      throw moduleNotFound(specifier);
    });
    try {
      const cairn = await openCairn(project.root, {
        env: {},
        homeDir: join(project.root, 'home'),
        overrides: { memoryBackendType: 'lancedb' },
      });
      // Nothing is left to load on first use: what the backend is, it is now.
      expect(imported).toEqual([LANCEDB_PACKAGE]);
      expect(cairn.backend.type).toBe('file');
      expect(cairn.warnings.join('\n')).toContain(`cannot load ${LANCEDB_PACKAGE}`);
      await cairn.init();
      await cairn.write('# Memory\n\nThe release train leaves on Thursdays.\n');
      expect((await cairn.search({ query: 'release train' }))[0]?.snippet).toContain('Thursdays');
      expect((await cairn.reindex()).backend).toBe('file');
      expect((await cairn.status()).backend).toMatchObject({
        requested: 'lancedb',
        resolved: 'file',
      });
      expect(imported).toEqual([LANCEDB_PACKAGE]);
      await cairn.close();
    } finally {
      setModuleImporter((specifier) => import(specifier));
    }
  });

  it('keeps settings as configured (the fallback is a warning, not a rewrite)', async () => {
    const { cairn } = await openWithoutLancedb(project.root);
    expect(cairn.settings.retrievalAdapter).toBe('lancedb');
    expect(loadFailureCount(cairn.warnings)).toBe(1);
  });
});

describe('openCairn given the settings a host resolved', () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await makeTempProject();
    await mkdir(join(project.root, '.cairn'), { recursive: true });
  });
  afterEach(() => project.cleanup());

  const configure = (searchLimit: number) =>
    writeFile(
      join(project.root, '.cairn', 'config.json'),
      JSON.stringify({ limits: { searchLimit } }),
    );

  it('does not read the files again', async () => {
    const options = { env: {}, homeDir: join(project.root, 'home') };
    await configure(7);
    const resolvedSettings = resolveSettings({ projectRoot: project.root, ...options });
    expect(resolvedSettings.settings.limits.searchLimit).toBe(7);
    expect(resolvedSettings.sources['limits.searchLimit']).toMatchObject({ kind: 'project' });
    await configure(9);
    const handedOver = await openCairn(project.root, { ...options, resolvedSettings });
    expect(handedOver.settings.limits.searchLimit).toBe(7);
    expect(handedOver.resolved).toBe(resolvedSettings);
    expect((await openCairn(project.root, options)).settings.limits.searchLimit).toBe(9);
  });
});

describe('importEngineDependency', () => {
  afterEach(() => setModuleImporter((specifier) => import(specifier)));

  it('finds the engine’s own dependency when the host’s importer resolves from elsewhere', async () => {
    setModuleImporter(async (specifier) => {
      throw moduleNotFound(specifier);
    });
    const tokenizer = (await importEngineDependency('gpt-tokenizer/encoding/o200k_base')) as {
      countTokens(text: string): number;
    };
    expect(tokenizer.countTokens('hello world')).toBe(2);
  });

  it('reports the host importer’s error for a module neither can find', async () => {
    setModuleImporter(async (specifier) => {
      throw moduleNotFound(specifier);
    });
    await expect(importEngineDependency('@cairn/not-a-package')).rejects.toThrow(
      /imported from \/project/,
    );
  });
});

/** How many load failures name the package (each is reported once). */
function loadFailureCount(warnings: readonly string[]): number {
  return warnings.filter((w) => w.includes(`cannot load ${LANCEDB_PACKAGE}`)).length;
}
