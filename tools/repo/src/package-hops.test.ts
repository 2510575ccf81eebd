import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedPackages, packageHops } from './package-hops';

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

describe('packageHops', () => {
  it('counts a hop through a re-export file, not through a file of code that did not run', () => {
    const root = mkdtempSync(join(tmpdir(), 'cairn-hops-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
        return join(root, path);
      };
      const ran = [
        file(
          'packages/a/src/main.ts',
          "import { x } from './shim';\nimport { y } from './idle';\n",
        ),
        file('packages/b/src/b.ts', 'export const x = 1;\n'),
        file('packages/c/src/c.ts', 'export const y = 1;\n'),
      ];
      file(
        'packages/a/src/shim.ts',
        "/** Kept under this name. */\nexport { x } from '@cairn/b';\n",
      );
      file(
        'packages/a/src/idle.ts',
        "import { y } from '@cairn/c';\nexport function idle() {\n  return y;\n}\n",
      );
      expect(packageHops(root, ran)).toEqual({ hops: 1, edges: ['@cairn/a -> @cairn/b'] });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
