import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CairnError } from '@cairn/core';

/** The files of the built UI, by URL path, with their content types. */
const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

export interface StaticAsset {
  body: Buffer;
  type: string;
}

/**
 * The UI's folder: `dist/ui/` beside the built server, or, when the server
 * runs from its sources (tests), the package's built `dist/ui/`.
 */
export function defaultUiDir(): string {
  for (const relative of ['./ui/', '../dist/ui/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}app.js`)) return dir;
  }
  throw new CairnError('NOT_FOUND', 'The dashboard UI is not built', {
    hint: 'run `pnpm --filter @cairn/server build` (an installed @cairn/server ships it in dist/ui/)',
  });
}

/** Reads the UI once, at start: a few hundred kB held in memory, no file access per request. */
export function loadAssets(uiDir: string): Map<string, StaticAsset> {
  return new Map(
    Object.entries(ASSETS).map(([path, { file, type }]) => [
      path,
      { body: readFileSync(`${uiDir}${file}`), type },
    ]),
  );
}
