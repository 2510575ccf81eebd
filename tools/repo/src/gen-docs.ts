import { writeFileSync } from 'node:fs';
import { renderDocs } from './generated-docs';

/** `pnpm docs:gen` rewrites the generated tables; `--check` fails when they are stale. */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const files = await renderDocs();
  const stale = [...files].filter(([, { before, after }]) => before !== after);
  if (check) {
    if (stale.length === 0) {
      console.log('generated docs are up to date');
      return;
    }
    for (const [path] of stale) console.error(`out of date: ${path}`);
    console.error('run `pnpm docs:gen` and commit the result');
    process.exitCode = 1;
    return;
  }
  for (const [path, { after }] of stale) {
    writeFileSync(path, after);
    console.log(`updated ${path}`);
  }
  if (stale.length === 0) console.log('generated docs are up to date');
}

await main();
