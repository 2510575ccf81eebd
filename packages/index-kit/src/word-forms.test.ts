import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IRREGULAR_FORMS } from './irregular-forms';
import { baseForm, wordForms, wordStem } from './word-forms';

describe('irregular word forms', () => {
  // A child process reading the dictionary: slow on a loaded machine (the timeout is no timing check).
  it('is what scripts/irregular-forms.mjs draws from WordNet via wink-lexicon', () => {
    const script = fileURLToPath(new URL('../scripts/irregular-forms.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  }, 60_000);

  it('holds sorted lines of a lemma and its irregular forms', () => {
    const lines = IRREGULAR_FORMS.split('\n');
    expect(lines.length).toBeGreaterThan(300);
    const heads = lines.map((line) => line.slice(0, line.indexOf(' ')));
    expect(heads).toEqual([...heads].sort());
    expect(lines.every((line) => /^[a-z]{2,}( [a-z]{2,})+$/.test(line))).toBe(true);
  });

  it('maps a form onto its lemma and the lemma onto its forms', async () => {
    expect((await wordForms('went')).sort()).toEqual(['go', 'goes', 'going', 'gone']);
    expect(await wordForms('go')).toContain('went');
    expect(await wordForms('children')).toEqual(['child']);
    expect(await wordForms('child')).toEqual(['children']);
    expect(await wordForms('bought')).toEqual(['buy']);
    expect(await wordForms('walked')).toEqual([]);
    expect(await wordForms('deploy')).toEqual([]);
  });
});

describe('word stems', () => {
  it('meets the forms of a word on one stem, as the search index stores them', () => {
    expect(new Set(['cancel', 'cancelled', 'cancellation', 'cancels'].map(wordStem)).size).toBe(1);
    expect(new Set(['approve', 'approves', 'approval'].map(wordStem)).size).toBe(1);
    expect(new Set(['release', 'releases', 'released', 'releasing'].map(wordStem)).size).toBe(1);
    expect(wordStem('retries')).toBe(wordStem('retried'));
    expect(wordStem('header')).not.toBe(wordStem('head'));
  });
});

describe('base forms', () => {
  it('maps the forms a developer writes onto one base form', () => {
    expect(['owns', 'owned', 'own'].map(baseForm)).toEqual(['own', 'own', 'own']);
    expect(['libraries', 'patches', 'stopped', 'running'].map(baseForm)).toEqual([
      'library',
      'patch',
      'stop',
      'run',
    ]);
    expect(['status', 'class', 'is'].map(baseForm)).toEqual(['status', 'class', 'is']);
  });
});
