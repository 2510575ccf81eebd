import { describe, expect, it } from 'vitest';
import { EXPANSION_WEIGHTS, expandQuery, indexGlossary, MAX_EXPANSIONS } from './query-expansion';

const words = (found: { words: string[] }[]) => found.map((e) => e.words.join(' '));

describe('query expansion', () => {
  it('widens a query with the software glossary: abbreviations, statuses, errors, synonyms', async () => {
    const owns = await expandQuery('who owns this project', ['owns', 'project'], {
      wordnet: false,
    });
    expect(words(owns)).toEqual(expect.arrayContaining(['maintainer', 'maintains']));
    expect(
      owns.every((e) => e.weight === EXPANSION_WEIGHTS.glossary && e.source === 'glossary'),
    ).toBe(true);
    expect(words(await expandQuery('too many requests', ['many', 'requests']))).toContain('429');
    expect(words(await expandQuery('got a 429', ['got', '429']))).toContain('too many requests');
    expect(words(await expandQuery('EMFILE on mac', ['emfile', 'mac']))).toContain(
      'too many open files',
    );
    expect(words(await expandQuery('k8s manifests', ['k8s', 'manifests']))).toContain('kubernetes');
    expect(words(await expandQuery('run the e2e suite', ['run', 'e2e', 'suite']))).toContain(
      'end to end',
    );
  });

  it('adds WordNet synonyms of short queries only, at the lowest weight', async () => {
    const found = await expandQuery('begin', ['begin']);
    expect(found.filter((e) => e.source === 'wordnet').map((e) => e.words[0])).toContain('start');
    expect(
      found.every((e) => e.source !== 'wordnet' || e.weight === EXPANSION_WEIGHTS.wordnet),
    ).toBe(true);
    const long =
      'begin the work when the team meets, after the plan is agreed, the budget is set and the office opens';
    const content = long.split(' ').filter((w) => w.length > 3);
    expect((await expandQuery(long, content)).some((e) => e.source === 'wordnet')).toBe(false);
    const without = await expandQuery('begin', ['begin'], { wordnet: false });
    expect(without.filter((e) => e.source === 'wordnet')).toEqual([]);
  });

  it('adds the irregular forms of a word: went for go, children for child', async () => {
    const went = await expandQuery('when did Maria go to the beach', ['maria', 'go', 'beach'], {
      wordnet: false,
    });
    expect(words(went.filter((e) => e.source === 'forms'))).toEqual(
      expect.arrayContaining(['went', 'gone']),
    );
    expect(went.every((e) => e.source !== 'forms' || e.weight === EXPANSION_WEIGHTS.forms)).toBe(
      true,
    );
    expect(words(await expandQuery('how many children', ['many', 'children']))).toContain('child');
    expect(words(await expandQuery('she bought shoes', ['bought', 'shoes']))).toContain('buy');
  });

  it('writes a compound the other way: joined, or split into common words', async () => {
    const joined = await expandQuery('ice cream recipe', ['ice', 'cream', 'recipe']);
    expect(words(joined.filter((e) => e.source === 'compound'))).toEqual(
      expect.arrayContaining(['icecream', 'creamrecipe']),
    );
    const split = await expandQuery('the roadtrip', ['roadtrip']);
    expect(split.find((e) => e.source === 'compound')).toEqual({
      words: ['road', 'trip'],
      weight: EXPANSION_WEIGHTS.compound,
      source: 'compound',
      standsFor: ['roadtrip'],
    });
    expect(words(await expandQuery('filename', ['filename']))).toContain('file name');
    // Parts must be common words on both sides of the cut, three letters at least.
    expect(words(await expandQuery('melanie', ['melanie']))).not.toContain('mel anie');
    expect(
      (await expandQuery('roadtrip', ['roadtrip'], { wordnet: false })).some(
        (e) => e.source === 'compound',
      ),
    ).toBe(false);
  });

  it("puts a project's own groups first, each term once, and caps the total", async () => {
    const project = indexGlossary([['kestrel', 'deploy pipeline'], ['alone'], []]);
    expect(project.groups).toHaveLength(1);
    const found = await expandQuery('kestrel deploy', ['kestrel', 'deploy'], { project });
    expect(found[0]).toEqual({
      words: ['deploy', 'pipeline'],
      weight: 0.6,
      source: 'project',
      standsFor: ['kestrel'],
    });
    expect(new Set(words(found)).size).toBe(found.length);
    const abbreviations =
      'db env auth repo config k8s ci e2e pr cli pkg lib msg err tz docs perf dir infra qa';
    const many = await expandQuery(abbreviations, abbreviations.split(' '));
    expect(many).toHaveLength(MAX_EXPANSIONS);
  });

  it('names the query words each expansion stands for', async () => {
    const found = await expandQuery(
      'got a too many requests error',
      ['got', 'many', 'requests', 'error'],
      {
        wordnet: false,
      },
    );
    const of = (word: string) => found.find((e) => e.words.join(' ') === word)?.standsFor;
    expect(of('429')).toEqual(['too', 'many', 'requests']);
    expect(of('err')).toEqual(['error']);
    const forms = await expandQuery('the mail was sent', ['mail', 'sent'], { wordnet: false });
    expect(forms.find((e) => e.words[0] === 'send')?.standsFor).toEqual(['sent']);
  });

  it('knows general developer vocabulary: abbreviations, other names, phrasal verbs', async () => {
    const said = async (query: string) =>
      words(await expandQuery(query, query.split(' '), { wordnet: false }));
    expect(await said('query params')).toContain('parameter');
    expect(await said('database backed up')).toContain('backup');
    expect(await said('cancel upload')).toContain('abort');
    expect(await said('publish package')).toContain('release');
    expect(await said('a11y audit')).toContain('accessibility');
    expect(await said('commonjs build')).toContain('cjs');
  });
});
