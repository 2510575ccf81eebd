import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fidelityPage } from './harness-evidence';

/**
 * Writes the pages the docs site has beyond docs/ into the folder given
 * (the site's staging folder): the fidelity matrix with its evidence.
 */
const folder = process.argv[2];
if (!folder) {
  console.error('usage: site-pages <folder>');
  process.exit(2);
}
writeFileSync(join(resolve(folder), 'FIDELITY.md'), await fidelityPage());
