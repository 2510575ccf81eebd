import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../dist', import.meta.url));

/** Names of the npm packages whose files the built bundles were made from. */
function bundledPackages(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(dist).filter((n) => n.endsWith('.cjs.map'))) {
    const map = JSON.parse(readFileSync(join(dist, file), 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      const at = source.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const parts = source.slice(at + 'node_modules/'.length).split('/');
      const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
      if (name && name !== 'tsup') names.add(name);
    }
  }
  return names;
}

describe('dist/THIRD-PARTY-NOTICES.md', () => {
  it('names every npm package bundled into the CLI, with its license text', () => {
    const notices = readFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), 'utf8');
    const bundled = bundledPackages();
    expect(bundled.has('zod')).toBe(true);
    for (const name of bundled) expect(notices).toContain(`## ${name} `);
    expect(notices).not.toContain('ships no license file');
  });
});
