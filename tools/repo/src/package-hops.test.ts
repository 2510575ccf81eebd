import { describe, expect, it } from 'vitest';
import { importedPackages } from './package-hops';

describe('importedPackages', () => {
  it('counts value imports, re-exports and dynamic imports, not type-only ones', () => {
    const source = [
      "import type { Cairn } from '@cairn/engine';",
      "import { CairnError, type Settings } from '@cairn/core';",
      "export { syncPool } from '@cairn/index-kit/sync';",
      "const driver = await import('@cairn/sqlite');",
      "import { join } from 'node:path';",
      "import { local } from './local';",
    ].join('\n');
    expect([...importedPackages(source)].sort()).toEqual([
      '@cairn/core',
      '@cairn/index-kit',
      '@cairn/sqlite',
    ]);
  });

  it('reads a multi-line import list', () => {
    const source = "import {\n  openCairn,\n  type Cairn,\n} from '@cairn/engine';\n";
    expect([...importedPackages(source)]).toEqual(['@cairn/engine']);
  });
});
