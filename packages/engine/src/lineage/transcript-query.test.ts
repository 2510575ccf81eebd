import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LineageFixture, makeLineageFixture, minute } from './lineage.fixture';
import type { LineageStore } from './lineage-store';
import { SELECTIVE_FROM_ENTRIES } from './transcript-query';

let fixture: LineageFixture;
let store: LineageStore;
beforeEach(async () => {
  fixture = await makeLineageFixture();
  store = fixture.open();
});
afterEach(() => fixture.cleanup());

/** `count` entries of one session that all say `project`, half of them `team`, one `kestrel`. */
function fill(count: number): void {
  for (let i = 0; i < count; i += 1) {
    const words = ['project', i % 2 === 0 ? 'team' : 'build', `step${i}`];
    if (i === 7) words.push('kestrel');
    store.appendTranscriptEntry({
      agentId: 'agent-a',
      sessionKey: `s${Math.floor(i / 50)}`,
      role: 'tool',
      toolName: 'Bash',
      text: words.join(' '),
      at: minute(i),
    });
  }
}

describe('transcript queries on a large history', () => {
  it('leave out a word most entries hold when a rarer one is asked for', () => {
    fill(SELECTIVE_FROM_ENTRIES + 100);
    const hits = store.searchTranscripts('agent-a', 'project kestrel', { limit: 5 });
    expect(hits).toHaveLength(1);
    expect(hits[0]!.snippet).toContain('kestrel');
  });

  it('ask for the rarest word when every word is common', () => {
    fill(SELECTIVE_FROM_ENTRIES + 100);
    const hits = store.searchTranscripts('agent-a', 'project team', { limit: 5 });
    expect(hits).toHaveLength(5);
    for (const hit of hits) expect(hit.snippet).toContain('team');
  });

  it('ask for every word on a small project, the entry holding the rare one first', () => {
    fill(40);
    const hits = store.searchTranscripts('agent-a', 'project kestrel', { limit: 5 });
    expect(hits).toHaveLength(5);
    expect(hits[0]!.snippet).toContain('kestrel');
    expect(hits[1]!.snippet).not.toContain('kestrel');
  });

  it('rank by the rarity of the words an entry holds, newest first among equals', () => {
    fill(40);
    const hits = store.searchTranscripts('agent-a', 'team step3', { limit: 3 });
    // step3 is in one entry, team in every other one: the rare word outranks, then the newest.
    expect(hits.map((hit) => hit.snippet)).toEqual([
      'project build step3',
      'project team step38',
      'project team step36',
    ]);
    expect(hits[0]!.score).toBeLessThan(hits[1]!.score);
  });

  it('give a prompt naming two things an entry for each when no entry holds both', () => {
    const say = (text: string, i: number, agentId = 'agent-a') =>
      store.appendTranscriptEntry({
        agentId,
        sessionKey: `s${i}`,
        role: 'tool',
        toolName: 'Bash',
        text,
        at: minute(i),
      });
    for (let i = 1; i <= 5; i += 1) say(`the zxakv migration ran ${i}`, i);
    for (let i = 6; i <= 11; i += 1) say(`jhuvx step ${i}`, i);
    // The newest zxakv entry is another agent's: not taken.
    say('zxakv of agent b', 12, 'agent-b');
    const hits = store.searchTranscripts('agent-a', 'jhuvx zxakv', { limit: 2 });
    // As rare as each other: the newest hold jhuvx, then the newest of this agent's zxakv.
    expect(hits.map((hit) => hit.snippet)).toEqual(['jhuvx step 11', 'the zxakv migration ran 5']);
  });

  it('leave out the asking session before choosing, so its prompt does not stand for every word', () => {
    const say = (text: string, i: number, sessionKey = `s${i}`) =>
      store.appendTranscriptEntry({
        agentId: 'agent-a',
        sessionKey,
        role: 'user',
        text,
        at: minute(i),
      });
    for (let i = 1; i <= 3; i += 1) say(`the zxakv migration ran ${i}`, i);
    for (let i = 4; i <= 6; i += 1) say(`jhuvx step ${i}`, i);
    // The prompt being answered is recorded first, in the session that asks.
    say('jhuvx zxakv', 7, 'asking');
    const hits = store.searchTranscripts('agent-a', 'jhuvx zxakv', {
      limit: 2,
      excludeSessionKey: 'asking',
    });
    expect(hits.map((hit) => hit.snippet)).toEqual(['jhuvx step 6', 'the zxakv migration ran 3']);
  });
});
