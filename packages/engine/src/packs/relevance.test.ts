import { describe, expect, it } from 'vitest';
import type { PackInput } from './compose-pack';
import { RELEVANCE_FLOORS } from './pack-planes';
import { relevantCandidates } from './relevance';
import { meaningfulTerms, queryVocabulary } from './relevance-terms';

const unit = (
  id: string,
  text: string,
  score: number,
  extra: Partial<PackInput> = {},
): PackInput => ({
  id,
  plane: 'long-term',
  text,
  source: 'units',
  trustClass: 'approved',
  provenance: { kind: 'unit', id },
  score,
  why: 'memory search match',
  ...extra,
});

describe('relevance before budget', () => {
  it('keeps the unit that answers a prompt and leaves out the ones that only share a word or the budget', () => {
    // The reproduction of the issue: the answer ranked second among unrelated units.
    const candidates = [
      unit('ld', 'LaunchDarkly flags are called through the SDK, never by hand.', 9),
      unit('answer', 'onDownloadProgress is only called when the server sends Content-Length.', 8),
      unit('maint', 'The maintainer is Sindre; releases are cut on Mondays.', 4),
      unit('ci', 'CI caches node_modules keyed by the lockfile hash.', 3),
      unit('log', 'Logging goes through pino at level info.', 2),
    ];
    const result = relevantCandidates(
      'the download progress callback is never called, why?',
      candidates,
      RELEVANCE_FLOORS,
    );
    expect(result.kept.map((c) => c.id)).toEqual(['answer']);
    expect(result.excluded.map((e) => [e.id, e.reason])).toEqual([
      ['ld', 'not-relevant'],
      ['maint', 'not-relevant'],
      ['ci', 'not-relevant'],
      ['log', 'not-relevant'],
    ]);
  });

  it('finds nothing for a request nothing answers, and for a query without meaningful words', () => {
    const candidates = [unit('a', 'Deploys go through kestrel.', 5)];
    expect(relevantCandidates('how is the weather in Lisbon?', candidates, {}).kept).toEqual([]);
    expect(relevantCandidates('what is it, and why?', candidates, {}).kept).toEqual([]);
  });

  it('applies the ranker floor relative to the best hit, and keeps what the request names', () => {
    const candidates = [
      unit('best', 'kestrel deploys need the vpn', 10),
      unit('weak', 'kestrel is a bird', 1),
      unit('named', 'Run r-1 met nothing you asked about', 0, { match: 'named', plane: 'history' }),
    ];
    const result = relevantCandidates('kestrel deploys', candidates, RELEVANCE_FLOORS);
    expect(result.kept.map((c) => c.id)).toEqual(['best', 'named']);
  });

  it('reads identifiers and word forms as the search does', () => {
    const terms = meaningfulTerms('onDownloadProgress retries were failing');
    expect([...terms]).toEqual(expect.arrayContaining(['download', 'progress', 'fail']));
    // Every form of a word meets on the search index's stem.
    expect(meaningfulTerms('retried fails')).toEqual(meaningfulTerms('retries failing'));
    expect(meaningfulTerms('released cancellation approval')).toEqual(
      meaningfulTerms('releasing cancel approve'),
    );
    // Request words say nothing about the subject.
    expect(meaningfulTerms('please explain it again')).toEqual(new Set());
  });

  it('weighs words by rarity: an item sharing only a word most candidates hold is not relevant', () => {
    const deployHeavy = Array.from({ length: 6 }, (_, i) =>
      unit(`d${i}`, `Deploy step ${i} runs the deploy pipeline for service ${i}.`, 5),
    );
    const answer = unit('key', 'The deploy key lives in the vault at ops/deploy-key.', 5);
    const result = relevantCandidates(
      'where is the deploy key kept?',
      [...deployHeavy, answer],
      {},
    );
    expect(result.kept.map((c) => c.id)).toEqual(['key']);
  });

  it('needs one more shared word from a long item (a run digest) than from a short one', () => {
    const story = `Run r-9: ${Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ')} deploy release`;
    const digest = unit('digest', story, 3, { plane: 'history', trustClass: 'derived' });
    const short = unit('short', 'Deploy with the release script.', 3, {
      plane: 'history',
      trustClass: 'derived',
    });
    const kept = relevantCandidates('deploy script', [digest, short], {}).kept.map((c) => c.id);
    expect(kept).toEqual(['short']);
  });

  it('sets the ranker floor by the best hit that holds the words, not by one ranked high for a common word', () => {
    const candidates = [
      unit('story', 'Storybook components are deployed to chromatic on each pull request.', 10),
      unit('key', 'The deploy key lives in the vault at ops/deploy-key.', 5),
    ];
    const kept = relevantCandidates(
      'where is the deploy key stored?',
      candidates,
      RELEVANCE_FLOORS,
    );
    expect(kept.kept.map((c) => c.id)).toEqual(['key']);
  });

  it("leaves out an item holding only the query's common words when another of its plane holds the rare ones", () => {
    const candidates = [
      unit('answer', 'Transactional email goes through Postmark, sent by the mailer service.', 5),
      ...Array.from({ length: 2 }, (_, i) =>
        unit(`svc${i}`, `The ${i} service runs behind the gateway.`, 5),
      ),
    ];
    const kept = relevantCandidates('which service sends email?', candidates, RELEVANCE_FLOORS);
    expect(kept.kept.map((c) => c.id)).toEqual(['answer']);
  });

  it('finds nothing for a request whose rare words no candidate holds, though one shares a common word', () => {
    // A term no candidate holds weighs the most: the request asks for what memory does not hold.
    const candidates = [
      unit('capital', 'Capital expenses are approved by the finance team.', 5),
      unit('cache', 'CI caches node_modules keyed by the lockfile hash.', 4),
    ];
    expect(
      relevantCandidates('what is the capital of Mongolia?', candidates, RELEVANCE_FLOORS).kept,
    ).toEqual([]);
    expect(
      relevantCandidates('how does CI cache dependencies?', candidates, RELEVANCE_FLOORS).kept.map(
        (c) => c.id,
      ),
    ).toEqual(['cache']);
  });

  it('keeps one weakly related item at most, and what holds the query well', () => {
    const candidates = [
      unit('answer', 'The default request timeout is 10 seconds; timeout: false turns it off.', 9),
      unit('retry', 'Only GET and PUT requests are retried by default.', 8),
      unit('debug', 'Debug logging is off by default; set DEBUG to see requests.', 7),
      unit('digest', 'Run r-1: raise the request timeout for slow uploads', 3, {
        plane: 'history',
        trustClass: 'derived',
      }),
    ];
    const kept = relevantCandidates(
      'what is the default request timeout?',
      candidates,
      RELEVANCE_FLOORS,
    ).kept.map((c) => c.id);
    expect(kept).toEqual(['answer']);
  });

  it('reads an item by its own words, not the labels Cairn renders on it', () => {
    const digest = unit(
      'digest',
      'Run r-7 (2026-05-01): rename the parser\nOutcome: failed (2 error(s) still failing)',
      3,
      {
        plane: 'history',
        trustClass: 'derived',
        matchText: 'rename the parser',
      },
    );
    expect(relevantCandidates('how do I fix lint errors?', [digest], {}).kept).toEqual([]);
    expect(relevantCandidates('why did we rename the parser?', [digest], {}).kept).toHaveLength(1);
  });

  it('judges a query of parts (a thread status and next action) part by part', () => {
    const candidates = [
      unit('jitter', 'Backoff adds full jitter to every retry delay.', 5),
      unit('other', 'Releases are cut with np from main.', 4),
    ];
    const query =
      'the retry tests pass again after the Retry-After cap landed\nadd jitter to the backoff';
    expect(
      relevantCandidates(query, candidates, RELEVANCE_FLOORS, { parts: true }).kept.map(
        (c) => c.id,
      ),
    ).toEqual(['jitter']);
  });

  it('judges a prompt of several sentences sentence by sentence: each question finds its answer', () => {
    const candidates = [
      unit('staging', 'The staging cluster of this project is called heron-stage.', 9),
      unit('pager', 'The on-call pager alias of this project is osprey-oncall.', 8),
      unit('lint', 'Code is formatted with Biome before each commit.', 7),
    ];
    const prompt =
      'Please remember that releases are cut on Thursdays. Which pager alias does on-call use? And which staging cluster?';
    const kept = relevantCandidates(prompt, candidates, RELEVANCE_FLOORS).kept.map((c) => c.id);
    expect(kept.sort()).toEqual(['pager', 'staging']);
  });

  it('matches another form of a word: "approves" finds "approval"', () => {
    const candidates = [
      unit('answer', 'Budget approval lies with the CFO.', 5),
      unit('plan', 'The hiring plan is reviewed every quarter.', 4),
    ];
    const kept = relevantCandidates('who approves the quarterly budget?', candidates, {}).kept;
    expect(kept.map((c) => c.id)).toEqual(['answer']);
  });

  it('matches a synonym the search looked for, backing a word the item shares; never alone', async () => {
    const query = 'how often do we ship the android app?';
    const vocabulary = await queryVocabulary(query);
    const candidates = [
      // `ship` is `deploy` in the search's glossary.
      unit('answer', 'The Android client deploys every Thursday.', 5),
      unit('alone', 'Deploys run after the nightly build.', 4),
      unit('ios', 'The iOS certificate is renewed by the team.', 3),
    ];
    const kept = (options = {}) =>
      relevantCandidates(query, candidates, RELEVANCE_FLOORS, options).kept.map((c) => c.id);
    expect(kept({ vocabulary })).toEqual(['answer']);
    // The request's own words alone: the answer shares one of them, and `ship` no item holds.
    expect(kept()).toEqual([]);
  });

  it("does not let a synonym raise the bar for an item holding the request's own words", async () => {
    const query = 'what is the default request timeout?';
    const vocabulary = await queryVocabulary(query);
    const section = (id: string, heading: string, text: string, score: number) =>
      unit(id, text, score, {
        plane: 'documents',
        trustClass: 'raw',
        provenance: { kind: 'document', id: `README.md#${heading}`, file: 'README.md' },
      });
    const candidates = [
      section('timeouts', 'Timeouts', 'Every request times out after 10000 ms.', 1),
      // 408 is "request timeout" in the glossary: it holds both words another way.
      section('statuses', 'Statuses', 'The default retried statuses are 408, 429 and 503.', 0.9),
    ];
    const kept = relevantCandidates(query, candidates, RELEVANCE_FLOORS, { vocabulary }).kept;
    expect(kept.map((c) => c.id)).toContain('timeouts');
  });

  it('keeps a document section whose heading the request names, whatever its body says', () => {
    const section = (id: string, heading: string, text: string) =>
      unit(id, text, 1, {
        plane: 'documents',
        trustClass: 'raw',
        provenance: { kind: 'document', id: `README.md#${heading}`, file: 'README.md' },
      });
    const candidates = [
      unit('answer', 'Releases are cut from main with np.', 9),
      ...['train', 'notes', 'blog', 'freeze', 'tags', 'calendar'].map((topic, i) =>
        unit(topic, `The release ${topic} is kept by the platform team ${i}.`, 8 - i),
      ),
      section(
        'releasing',
        'Releasing',
        'Run `np` on main; it bumps the version, tags and publishes.',
      ),
      section('changelog', 'Changelog', 'Every release lists its changes in CHANGELOG.md.'),
    ];
    const kept = relevantCandidates('how do we cut a release?', candidates, RELEVANCE_FLOORS).kept;
    expect(kept.map((c) => c.id).sort()).toEqual(['answer', 'releasing']);
  });

  it('takes a heading named in passing in a long request for no subject of it', () => {
    const testing = unit(
      'testing',
      'Tests use ava. Run npm test before pushing; npx ava test/retry.ts runs one file.',
      1,
      {
        plane: 'documents',
        trustClass: 'raw',
        provenance: { kind: 'document', id: 'README.md#Testing', file: 'README.md' },
      },
    );
    const others = ['billing', 'search', 'exports'].map((topic, i) =>
      unit(topic, `The ${topic} service keeps its own database.`, 5 - i),
    );
    const judge = (query: string) =>
      relevantCandidates(query, [...others, testing], RELEVANCE_FLOORS).kept.map((c) => c.id);
    expect(judge('how do I run the tests?')).toEqual(['testing']);
    expect(
      judge("pytest says fixture 'tmp_path' not found in one of my test files, any idea why?"),
    ).toEqual([]);
  });

  it('reads the tail of a plea for help as no question of its own', () => {
    const cache = unit('cache', 'pnpm build: cache miss, executing the build script.', 3, {
      plane: 'history',
      trustClass: 'derived',
    });
    const prompt =
      'in react native the keyboard covers my text input on android. what am i missing';
    expect(relevantCandidates(prompt, [cache], {}).kept).toEqual([]);
    expect(relevantCandidates('why is every build a cache miss?', [cache], {}).kept).toHaveLength(
      1,
    );
  });

  it('keeps the most focused of equally weak items: one about the request beats one naming it in passing', () => {
    const candidates = [
      unit(
        'offsite',
        'Offsite notes: database migrations, lunch, parking, badges, travel, hotel.',
        10,
      ),
      unit(
        'standup',
        'Standup: database migrations, vacation calendar, printer, coffee, desks.',
        9,
      ),
      unit('weekly', 'Weekly: database migrations, hiring plan, interviews, laptops.', 8),
      unit('answer', 'Database migrations run with knex before the app starts.', 7),
    ];
    const kept = relevantCandidates(
      'how are database migrations applied?',
      candidates,
      RELEVANCE_FLOORS,
    ).kept.map((c) => c.id);
    expect(kept).toContain('answer');
    expect(kept).toHaveLength(2);
  });
});
