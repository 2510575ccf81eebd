import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CairnError, createHashEmbedder, type Embedder, resolveSettings } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embedderFromSettings, rankingFromSettings } from './embedder-from-settings';
import { createCachedEmbedder } from './embedding-cache';
import { createTransformersEmbedder, type TransformersModule } from './transformers-embedder';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

async function rejection(promise: Promise<unknown>): Promise<CairnError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(CairnError.isInstance(error)).toBe(true);
  return error as CairnError;
}

/** A real embedder (hash) that counts the texts it was asked for. */
function countingEmbedder(): Embedder & { seen: string[] } {
  const hash = createHashEmbedder({ dimensions: 16 });
  const seen: string[] = [];
  return {
    id: hash.id,
    model: hash.model,
    dimensions: hash.dimensions,
    seen,
    embed: (texts) => {
      seen.push(...texts);
      return hash.embed(texts);
    },
  };
}

describe('hash embedder', () => {
  it('is deterministic, sized and normalized, and tells texts apart', async () => {
    const [a, b] = await createHashEmbedder().embed([
      'Deploy with a canary.',
      'Deploy with a canary.',
    ]);
    const [again] = await createHashEmbedder().embed(['Deploy with a canary.']);
    const [other] = await createHashEmbedder().embed(['Rotate the vault keys.']);
    expect(a).toHaveLength(256);
    expect(a).toEqual(b);
    expect(a).toEqual(again);
    expect(other).not.toEqual(a);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 6);
    expect(() => createHashEmbedder({ dimensions: 4 })).toThrow(RangeError);
  });
});

describe('embedding cache', () => {
  it('sends only uncached texts, and survives a restart', async () => {
    const path = join(project.root, '.cairn/index/embeddings.sqlite');
    const inner = countingEmbedder();
    const cached = createCachedEmbedder(inner, path);
    const first = await cached.embed(['alpha', 'beta']);
    const second = await cached.embed(['beta', 'gamma']);
    expect(inner.seen).toEqual(['alpha', 'beta', 'gamma']);
    expect(cached.stats).toEqual({ hits: 1, misses: 3 });
    expect(second[0]).toEqual(first[1]!.map((v) => Math.fround(v)));
    cached.close();
    const restarted = createCachedEmbedder(inner, path);
    await restarted.embed(['alpha', 'gamma']);
    expect(inner.seen).toHaveLength(3);
    expect(restarted.stats.hits).toBe(2);
    restarted.close();
  });

  it('keys entries by provider, model and size: another model misses', async () => {
    const path = join(project.root, 'cache.sqlite');
    const small = createCachedEmbedder(countingEmbedder(), path);
    await small.embed(['alpha']);
    small.close();
    const other = countingEmbedder();
    const large = createCachedEmbedder({ ...other, dimensions: 16, model: 'other-model' }, path);
    await large.embed(['alpha']);
    expect(large.stats).toEqual({ hits: 0, misses: 1 });
    large.close();
  });
});

describe('transformers embedder', () => {
  const options = { model: 'Xenova/all-MiniLM-L6-v2', dimensions: 384 };

  it('refuses a missing local model folder before loading anything', async () => {
    let loaded = false;
    const embedder = createTransformersEmbedder({
      ...options,
      modelDir: join(project.root, 'models'),
      loadModule: async () => {
        loaded = true;
        throw new Error('unreachable');
      },
    });
    const error = await rejection(embedder.embed(['x']));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.hint).toMatch(/allowDownload/);
    expect(loaded).toBe(false);
  });

  it('names the package and the install command when it is not installed', async () => {
    const modelDir = join(project.root, 'models');
    await mkdir(join(modelDir, 'Xenova/all-MiniLM-L6-v2'), { recursive: true });
    const error = await rejection(
      createTransformersEmbedder({ ...options, modelDir }).embed(['x']),
    );
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.details).toMatchObject({ package: '@huggingface/transformers' });
    expect(error.hint).toMatch(/pnpm add @huggingface\/transformers/);
  });

  it('keeps remote models off unless allowDownload is set', async () => {
    const modelDir = join(project.root, 'models');
    await mkdir(join(modelDir, 'Xenova/all-MiniLM-L6-v2'), { recursive: true });
    const library = (): TransformersModule & { asked: string[] } => {
      const asked: string[] = [];
      return {
        asked,
        env: { allowRemoteModels: true, allowLocalModels: false, localModelPath: '' },
        pipeline: async (_task, model) => {
          asked.push(model);
          return async (texts) => ({ tolist: () => texts.map(() => new Array(384).fill(0.1)) });
        },
      };
    };
    const offline = library();
    await createTransformersEmbedder({
      ...options,
      modelDir,
      loadModule: async () => offline,
    }).embed(['x']);
    expect(offline.env).toEqual({
      allowRemoteModels: false,
      allowLocalModels: true,
      localModelPath: modelDir,
    });
    const online = library();
    await createTransformersEmbedder({
      ...options,
      modelDir: join(project.root, 'elsewhere'),
      allowDownload: true,
      loadModule: async () => online,
    }).embed(['x']);
    expect(online.env.allowRemoteModels).toBe(true);
    expect(online.asked).toEqual(['Xenova/all-MiniLM-L6-v2']);
  });
});

describe('embedderFromSettings', () => {
  const settingsWith = (env: Record<string, string>) =>
    resolveSettings({ projectRoot: project.root, env, homeDir: project.root }).settings;

  it('is off by default, hash on request, and reads the ranking switches', () => {
    expect(embedderFromSettings(settingsWith({}), project.root)).toBeUndefined();
    const hash = embedderFromSettings(
      settingsWith({ CAIRN_EMBEDDER_PROVIDER: 'hash' }),
      project.root,
    );
    expect(hash).toMatchObject({ id: 'hash', dimensions: 256 });
    const ranking = rankingFromSettings(
      settingsWith({ CAIRN_SEARCH_MMR: 'true', CAIRN_SEARCH_RECENCY_HALF_LIFE_DAYS: '0' }),
    );
    expect(ranking).toMatchObject({ mmr: true, recencyHalfLifeDays: 0, vectorWeight: 0.3 });
  });

  it('throws INVALID_CONFIG for an incomplete openai or transformers setup', () => {
    const openai = { CAIRN_EMBEDDER_PROVIDER: 'openai', CAIRN_EMBEDDER_API_KEY_ENV: '' };
    const cases: [Record<string, string>, string][] = [
      [openai, 'embedder.baseUrl'],
      [{ ...openai, CAIRN_EMBEDDER_BASE_URL: 'http://127.0.0.1:9/v1' }, 'embedder.model'],
      [
        { ...openai, CAIRN_EMBEDDER_BASE_URL: 'http://127.0.0.1:9/v1', CAIRN_EMBEDDER_MODEL: 'm' },
        'embedder.dimensions',
      ],
      [
        {
          ...openai,
          CAIRN_EMBEDDER_BASE_URL: 'http://127.0.0.1:9/v1',
          CAIRN_EMBEDDER_MODEL: 'm',
          CAIRN_EMBEDDER_DIMENSIONS: '8',
          CAIRN_EMBEDDER_API_KEY_ENV: 'MISSING_KEY',
        },
        'embedder.apiKeyEnv',
      ],
      [
        {
          CAIRN_EMBEDDER_PROVIDER: 'transformers',
          CAIRN_EMBEDDER_MODEL: 'm',
          CAIRN_EMBEDDER_DIMENSIONS: '8',
        },
        'embedder.modelDir',
      ],
    ];
    for (const [env, key] of cases) {
      let thrown: unknown;
      try {
        embedderFromSettings(settingsWith(env), project.root, env);
      } catch (error) {
        thrown = error;
      }
      expect(CairnError.isInstance(thrown) && thrown.code).toBe('INVALID_CONFIG');
      expect((thrown as CairnError).details.key).toBe(key);
    }
  });
});
