import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectThrowsCode,
  type LineageFixture,
  makeLineageFixture,
  minute,
} from './lineage.fixture';
import type { LineageStore } from './lineage-store';

let fixture: LineageFixture;
let store: LineageStore;
beforeEach(async () => {
  fixture = await makeLineageFixture();
  store = fixture.open();
});
afterEach(() => fixture.cleanup());

const entry = (agentId: string, sessionKey: string, text: string, at?: number) => ({
  agentId,
  sessionKey,
  role: 'user' as const,
  text,
  ...(at === undefined ? {} : { at: minute(at) }),
});

describe('transcripts', () => {
  it('creates the transcript on first use and numbers entries from 1', () => {
    const first = store.appendTranscriptEntry({
      ...entry('agent-a', 's1', 'hello', 0),
      harness: 'claude-code',
      cwd: '/repo',
    });
    const second = store.appendTranscriptEntry({
      agentId: 'agent-a',
      sessionKey: 's1',
      role: 'tool',
      toolName: 'Bash',
      text: 'ls -la',
      at: '2026-05-01T11:01:00+02:00',
      harness: 'codex',
    });
    expect(first).toEqual({ transcriptId: first.transcriptId, seq: 1 });
    expect(second).toEqual({ transcriptId: first.transcriptId, seq: 2 });
    const transcript = store.getTranscript('agent-a', 's1');
    expect(transcript).toMatchObject({
      agentId: 'agent-a',
      sessionKey: 's1',
      harness: 'claude-code',
      cwd: '/repo',
      threadKey: null,
      startedAt: minute(0),
      totalEntries: 2,
    });
    expect(transcript?.entries).toEqual([
      { seq: 1, role: 'user', text: 'hello', toolName: null, at: minute(0) },
      { seq: 2, role: 'tool', text: 'ls -la', toolName: 'Bash', at: '2026-05-01T09:01:00.000Z' },
    ]);
  });

  it('reads windows by seq, count and time', () => {
    for (let i = 0; i < 10; i += 1) store.appendTranscriptEntry(entry('agent-a', 's1', `e${i}`, i));
    const seqs = (options: Parameters<LineageStore['getTranscript']>[2]) =>
      store.getTranscript('agent-a', 's1', options)?.entries.map((e) => e.seq);
    expect(seqs({ fromSeq: 8 })).toEqual([8, 9, 10]);
    expect(seqs({ limit: 2 })).toEqual([1, 2]);
    expect(seqs({ fromAt: minute(3), toAt: minute(5) })).toEqual([4, 5, 6]);
    expect(store.getTranscript('agent-a', 's1', { limit: 1 })?.totalEntries).toBe(10);
    expect(store.getTranscript('agent-a', 'nope')).toBeNull();
  });

  it('keeps two agents with the same session key apart', () => {
    store.appendTranscriptEntry({
      ...entry('agent-a', 'shared', 'alpha deploy plan'),
      harness: 'codex',
    });
    store.appendTranscriptEntry(entry('agent-b', 'shared', 'beta deploy plan'));
    store.appendTranscriptEntry(entry('agent-a', 'shared', 'alpha second'));
    const a = store.getTranscript('agent-a', 'shared');
    const b = store.getTranscript('agent-b', 'shared');
    expect(a?.transcriptId).not.toBe(b?.transcriptId);
    expect(a?.entries.map((e) => [e.seq, e.text])).toEqual([
      [1, 'alpha deploy plan'],
      [2, 'alpha second'],
    ]);
    expect(b?.entries.map((e) => [e.seq, e.text])).toEqual([[1, 'beta deploy plan']]);
    expect(b?.harness).toBeNull();
    expect(store.searchTranscripts('agent-b', 'deploy').map((hit) => hit.snippet)).toEqual([
      'beta deploy plan',
    ]);
    expect(store.searchTranscripts('agent-c', 'deploy')).toEqual([]);
  });

  it('searches with stemming, ranks, and never reads the query as FTS syntax', () => {
    store.appendTranscriptEntry(entry('agent-a', 's1', 'We deployed the API gateway yesterday'));
    store.appendTranscriptEntry(entry('agent-a', 's1', 'Lunch plans: pizza'));
    store.appendTranscriptEntry(entry('agent-a', 's2', 'The gateway config lives in infra'));
    // Stemmed: "deploying" finds "deployed"; the entry with more of the terms ranks
    // first (the index keeps no positions, so repeats of a term do not count).
    const hits = store.searchTranscripts('agent-a', 'deploying gateway', { limit: 5 });
    expect(hits.map((hit) => [hit.sessionKey, hit.seq])).toEqual([
      ['s1', 1],
      ['s2', 1],
    ]);
    expect(hits[0]).toMatchObject({ role: 'user', toolName: null });
    expect(store.searchTranscripts('agent-a', 'NOT "pizza" OR (* NEAR')).toHaveLength(1);
    expect(store.searchTranscripts('agent-a', '  ?! ')).toEqual([]);
    expect(store.searchTranscripts('agent-a', 'gateway', { limit: 1 })).toHaveLength(1);
  });

  it('builds snippets only for the ranked hits `keep` picks, as the full search would', () => {
    store.appendTranscriptEntry(entry('agent-a', 's1', 'We deployed the API gateway yesterday'));
    store.appendTranscriptEntry(entry('agent-a', 's2', `The gateway config ${'x '.repeat(900)}`));
    store.appendTranscriptEntry(entry('agent-a', 's3', 'A gateway timeout after the deploy'));
    const all = store.searchTranscripts('agent-a', 'deploying gateway', { limit: 5 });
    const offered: unknown[] = [];
    const kept = store.searchTranscripts('agent-a', 'deploying gateway', { limit: 5 }, (hits) => {
      offered.push(...hits);
      return hits.filter((hit) => hit.sessionKey !== 's1');
    });
    expect(offered).toHaveLength(all.length);
    for (const hit of offered) expect(hit).not.toHaveProperty('snippet');
    expect(kept).toEqual(all.filter((hit) => hit.sessionKey !== 's1'));
    expect(Object.keys(kept[0]!)).toEqual(Object.keys(all[0]!));
  });

  it('keeps the best entries of the agent in rank order, past a window of other agents’ hits', () => {
    // Ties in rank go newest first. Agent b's 210 later entries fill the index's
    // newest 200 rows, so agent a's entries are found by the scoped join.
    store.appendTranscriptEntry(entry('agent-a', 'a1', 'kiln once'));
    store.appendTranscriptEntry(entry('agent-a', 'a2', 'kiln twice'));
    for (let i = 0; i < 210; i += 1) store.appendTranscriptEntry(entry('agent-b', 'b1', 'kiln'));
    const early = store.searchTranscripts('agent-a', 'kiln', { limit: 5 });
    expect(early.map((hit) => hit.sessionKey)).toEqual(['a2', 'a1']);
    // Interleaved: the first `limit` of the agent in rank order, the rest left unread.
    for (let i = 0; i < 6; i += 1) {
      store.appendTranscriptEntry(entry(i % 2 ? 'agent-a' : 'agent-b', `m${i}`, 'marl'));
    }
    const mixed = store.searchTranscripts('agent-a', 'marl', { limit: 2 });
    expect(mixed.map((hit) => hit.sessionKey)).toEqual(['m5', 'm3']);
    expect(
      store.searchTranscripts('agent-a', 'marl', { limit: 3 }).map((hit) => hit.sessionKey),
    ).toEqual(['m5', 'm3', 'm1']);
  });

  it('scopes search to a thread: by the transcript’s thread or a node of its session', () => {
    store.appendTranscriptEntry({ ...entry('agent-a', 's1', 'auth bug'), threadKey: 'auth' });
    store.appendTranscriptEntry(entry('agent-a', 's2', 'auth token rotation'));
    store.appendTranscriptEntry(entry('agent-a', 's3', 'auth unrelated'));
    store.addNode({
      agentId: 'agent-a',
      kind: 'compaction',
      threadKey: 'auth',
      sessionKey: 's2',
      source: 'harness',
      text: 'compacted',
    });
    const sessions = store
      .searchTranscripts('agent-a', 'auth', { threadKey: 'auth' })
      .map((hit) => hit.sessionKey)
      .sort();
    expect(sessions).toEqual(['s1', 's2']);
  });

  it('rejects bad input with INVALID_INPUT and writes nothing', () => {
    const bad = [
      { ...entry('agent-a', 's1', 'x'), role: 'robot' },
      { ...entry('', 's1', 'x') },
      { ...entry('agent-a', '', 'x') },
      { ...entry('agent-a', 's1', 'x'), at: 'yesterday' },
      { ...entry('agent-a', 's1', 'x'), threadKey: '../escape' },
      { ...entry('agent-a', 's1', 'x'), harness: 'two\nlines' },
    ];
    for (const input of bad) {
      expectThrowsCode(() => store.appendTranscriptEntry(input as never), 'INVALID_INPUT');
    }
    expect(store.getTranscript('agent-a', 's1')).toBeNull();
    expectThrowsCode(() => store.getTranscript('agent-a', 's1', { limit: 0 }), 'INVALID_INPUT');
  });
});

describe('summary retries', () => {
  const now = new Date('2026-05-01T12:00:00.000Z');
  const clockStore = () => fixture.open({ now: () => now });

  it('counts attempts with a growing backoff and reports what is due', () => {
    const retries = clockStore();
    const first = retries.recordSummaryFailure({
      agentId: 'a',
      sessionKey: 's1',
      error: 'model down',
    });
    expect(first).toMatchObject({
      attempts: 1,
      lastError: 'model down',
      nextAttemptAt: '2026-05-01T12:01:00.000Z',
    });
    const second = retries.recordSummaryFailure({
      agentId: 'a',
      sessionKey: 's1',
      error: 'busy head',
    });
    expect(second).toMatchObject({
      attempts: 2,
      lastError: 'busy head',
      nextAttemptAt: '2026-05-01T12:02:00.000Z',
      firstFailedAt: first.firstFailedAt,
    });
    expect(retries.dueSummaryRetries('a', '2026-05-01T12:01:59Z')).toEqual([]);
    expect(retries.dueSummaryRetries('a', '2026-05-01T12:02:00Z').map((r) => r.sessionKey)).toEqual(
      ['s1'],
    );
  });

  it('is unique per (agent, session): the same session key of two agents stays separate', () => {
    const retries = clockStore();
    retries.recordSummaryFailure({
      agentId: 'a',
      sessionKey: 'shared',
      error: 'e',
      nextAttemptAt: now,
    });
    retries.recordSummaryFailure({
      agentId: 'b',
      sessionKey: 'shared',
      error: 'e',
      nextAttemptAt: now,
    });
    retries.recordSummaryFailure({
      agentId: 'b',
      sessionKey: 'shared',
      error: 'e2',
      nextAttemptAt: now,
    });
    expect(retries.dueSummaryRetries('a', now).map((r) => r.attempts)).toEqual([1]);
    expect(retries.dueSummaryRetries('b', now).map((r) => r.attempts)).toEqual([2]);
    expect(retries.clearSummaryRetry('a', 'shared')).toBe(true);
    expect(retries.clearSummaryRetry('a', 'shared')).toBe(false);
    expect(retries.dueSummaryRetries('a', now)).toEqual([]);
    expect(retries.dueSummaryRetries('b', now)).toHaveLength(1);
  });
});
