// Writes dist/THIRD-PARTY-NOTICES.md: the license of every npm package whose
// code the build bundled into dist/*.cjs (read from the bundles' source maps),
// so the published tarball carries the notices those licenses ask for.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const MARK = '/node_modules/';
const LICENSE_NAMES = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** The package folder a bundled source path sits in, or undefined for our own code. */
function packageDir(source) {
  const path = resolve(dist, source);
  const at = path.lastIndexOf(MARK);
  if (at < 0) return undefined;
  const parts = path.slice(at + MARK.length).split('/');
  const depth = parts[0].startsWith('@') ? 2 : 1;
  return join(path.slice(0, at + MARK.length), ...parts.slice(0, depth));
}

const dirs = new Set();
for (const name of readdirSync(dist)) {
  if (!name.endsWith('.cjs.map')) continue;
  const map = JSON.parse(readFileSync(join(dist, name), 'utf8'));
  for (const source of map.sources) {
    const dir = packageDir(source);
    if (dir) dirs.add(dir);
  }
}

const entries = [];
for (const dir of dirs) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // Build tooling shims (tsup's) are not third-party code users receive.
  if (pkg.name === 'tsup') continue;
  const file = readdirSync(dir).find((n) => LICENSE_NAMES.test(n));
  const text = file ? readFileSync(join(dir, file), 'utf8').trim() : undefined;
  entries.push({ name: pkg.name, version: pkg.version, license: pkg.license, text });
}
entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

const lines = [
  '# Third-party notices',
  '',
  'The bundled files in this folder contain code of the npm packages below,',
  'each under its own license, reproduced here as its package ships it.',
  '',
];
for (const entry of entries) {
  lines.push(`## ${entry.name} ${entry.version} (${entry.license ?? 'see below'})`, '');
  lines.push(entry.text ?? `License: ${entry.license}. The package ships no license file.`, '');
}
if (!existsSync(dist)) throw new Error(`no dist folder at ${dist}: build first`);
writeFileSync(join(dist, 'THIRD-PARTY-NOTICES.md'), `${lines.join('\n').trimEnd()}\n`);
console.log(`THIRD-PARTY-NOTICES.md: ${entries.map((e) => e.name).join(', ')}`);
