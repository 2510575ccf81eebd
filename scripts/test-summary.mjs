#!/usr/bin/env node
// Sums the JSON reports vitest wrote in every package and prints one closing
// line, `tests: N passed, N failed, N skipped`, so CI can read the outcome.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
let files = 0;
const folders = ['bench'];
for (const group of ['packages', 'backends', 'harnesses', 'tools']) {
  try {
    for (const name of readdirSync(join(root, group))) folders.push(join(group, name));
  } catch {
    // the group does not exist yet
  }
}
for (const folder of folders) {
  let report;
  try {
    report = JSON.parse(readFileSync(join(root, folder, '.vitest-report.json'), 'utf8'));
  } catch {
    continue;
  }
  files += 1;
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (files === 0) {
  console.error('no vitest reports found: did the tests run?');
  process.exit(1);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
