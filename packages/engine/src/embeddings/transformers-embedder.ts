import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CairnError, type Embedder } from '@cairn/core';

/** The part of @huggingface/transformers this embedder uses. */
export interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: 'feature-extraction',
    model: string,
  ): Promise<
    (
      texts: string[],
      options: { pooling: 'mean'; normalize: boolean },
    ) => Promise<{ tolist(): number[][] }>
  >;
}

export interface TransformersEmbedderOptions {
  /** The model id, e.g. `Xenova/all-MiniLM-L6-v2`: a folder under `modelDir`. */
  model: string;
  /** The local folder holding models (`<modelDir>/<model>/config.json`, onnx files...). */
  modelDir: string;
  dimensions: number;
  /** Let the library fetch a missing model from the hub. Default false: never. */
  allowDownload?: boolean;
  /** Loads the library; tests and bundlers may pass their own. */
  loadModule?: () => Promise<TransformersModule>;
}

export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** A variable specifier keeps bundlers from resolving the optional package at build time. */
async function importTransformers(): Promise<TransformersModule> {
  const specifier = TRANSFORMERS_PACKAGE;
  return (await import(specifier)) as TransformersModule;
}

async function loadLibrary(load: () => Promise<TransformersModule>): Promise<TransformersModule> {
  try {
    return await load();
  } catch (error) {
    throw new CairnError(
      'BACKEND_UNAVAILABLE',
      `Cannot load ${TRANSFORMERS_PACKAGE} for the transformers embedder`,
      {
        cause: error,
        hint: `install it beside Cairn (\`pnpm add ${TRANSFORMERS_PACKAGE}\` or \`npm i ${TRANSFORMERS_PACKAGE}\`), or set embedder.provider to "hash" or "openai"`,
        details: { package: TRANSFORMERS_PACKAGE },
      },
    );
  }
}

/** The model folder must exist unless downloads are allowed; checked before anything loads. */
function checkModelDir(options: TransformersEmbedderOptions): string {
  const modelDir = resolve(options.modelDir);
  if (options.allowDownload) return modelDir;
  const folder = join(modelDir, ...options.model.split('/'));
  if (!isDirectory(folder)) {
    throw new CairnError('NOT_FOUND', `No local model "${options.model}" under ${modelDir}`, {
      hint: `put the model files in ${folder} (e.g. with \`huggingface-cli download ${options.model} --local-dir ${folder}\`), or set embedder.allowDownload to true to let Cairn fetch it`,
      details: { model: options.model, modelDir, folder },
    });
  }
  return modelDir;
}

/**
 * Embeddings computed in process by @huggingface/transformers, an optional
 * dependency imported on first use. Models are read from `modelDir` only:
 * the library's remote loading stays off unless `allowDownload` is true.
 * A missing package or model folder is a typed error at the first embed.
 */
export function createTransformersEmbedder(options: TransformersEmbedderOptions): Embedder {
  if (!options.model.trim() || !options.modelDir.trim()) {
    throw new CairnError(
      'INVALID_CONFIG',
      'The transformers embedder needs embedder.model and embedder.modelDir',
      {
        hint: 'set embedder.modelDir to the folder holding the model and embedder.model to its id, e.g. "Xenova/all-MiniLM-L6-v2"',
        details: { key: options.model.trim() ? 'embedder.modelDir' : 'embedder.model' },
      },
    );
  }
  let extractor: ReturnType<TransformersModule['pipeline']> | undefined;
  const load = () => {
    extractor ??= (async () => {
      const modelDir = checkModelDir(options);
      const library = await loadLibrary(options.loadModule ?? importTransformers);
      library.env.allowRemoteModels = options.allowDownload === true;
      library.env.allowLocalModels = true;
      library.env.localModelPath = modelDir;
      return library.pipeline('feature-extraction', options.model);
    })();
    // A failed load is retried on the next call (the user may install the package meanwhile).
    extractor.catch(() => {
      extractor = undefined;
    });
    return extractor;
  };
  return {
    id: 'transformers',
    model: options.model,
    dimensions: options.dimensions,
    async embed(texts) {
      const run = await load();
      const output = await run(texts, { pooling: 'mean', normalize: true });
      return output.tolist();
    },
  };
}
