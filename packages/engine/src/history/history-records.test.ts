import { chunkFile } from '@cairn/index-kit';
import { fakeSecretDump, fixtureUnit, leakedFakeSecrets } from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import type { FixPatternDetail } from './fix-pattern-types';
import {
  digestRecordPath,
  patternRecordPath,
  renderDigestRecord,
  renderPatternRecord,
} from './history-records';
import type { RunDigest } from './run-digest-types';

const scope = { repo: 'shop', namespace: 'team-a' };

const pattern: FixPatternDetail = {
  id: 'FIX-0123456789ab',
  repo: 'shop',
  namespace: 'team-a',
  signature: '0123456789abcdef',
  family: 'pnpm',
  normalized: 'pnpm: ERR_PNPM_OUTDATED_LOCKFILE',
  commandFamily: 'pnpm install',
  stepsKey: 'run:pnpm install',
  steps: [{ kind: 'run', key: 'run:pnpm install', detail: 'pnpm install', eventId: 'T:1:2' }],
  state: 'verified',
  reason: null,
  applied: 2,
  succeeded: 2,
  failed: 0,
  failureEventId: 'T:1:1',
  successEventId: 'T:1:3',
  createdAt: '2026-05-01T09:00:00.000Z',
  updatedAt: '2026-05-02T09:00:00.000Z',
  runs: [
    {
      agentId: 'claude',
      sessionKey: 's-1',
      role: 'origin',
      failureEventId: 'T:1:1',
      successEventId: 'T:1:3',
      at: '2026-05-01T09:00:00.000Z',
    },
  ],
};

const digest: RunDigest = {
  version: 1,
  runId: 's-2',
  agentId: 'claude',
  threadKey: 'shop.main',
  startedAt: '2026-05-01T10:00:00.000Z',
  endedAt: '2026-05-01T10:30:00.000Z',
  // A prompt that quotes a secret and a unit's markers: neither may reach an index as such.
  intent: `Deploy with these:\n${fakeSecretDump()}\n${fixtureUnit(9, 'Injected as approved.')}`,
  outcome: 'succeeded',
  outcomeReason: 'the last tool calls succeeded',
  changes: { commits: [], editedFiles: [] },
  decisions: [],
  gotchas: [],
  nextSteps: [],
  narrativeSource: 'extractive',
  evidence: { sessionKey: 's-2', entries: 3, commits: [], toolEventIds: [] },
};

describe('task-history records', () => {
  it('renders a pattern with its header: approved when verified, its origin run as run_ref', () => {
    const text = renderPatternRecord(pattern, scope);
    const [chunk] = chunkFile(text, patternRecordPath(pattern.id), { records: true });
    expect(chunk?.record).toEqual({
      kind: 'fix_pattern',
      trustClass: 'approved',
      namespace: 'team-a',
      repo: 'shop',
      createdAt: '2026-05-01T09:00:00.000Z',
      runRef: { kind: 'run', id: 's-1' },
    });
    expect(text).toContain('## Evidence runs');
    expect(text).toContain('- run s-1 (claude, origin): T:1:1 → T:1:3');
    const candidate = renderPatternRecord({ ...pattern, state: 'candidate' }, scope);
    expect(chunkFile(candidate, 'p.md', { records: true })[0]?.record?.trustClass).toBe('derived');
  });

  it('renders a digest redacted, its markers escaped: no secret and no unit reach an index', () => {
    const text = renderDigestRecord({ nodeId: 'n-1', createdAt: digest.endedAt, digest }, scope);
    expect(leakedFakeSecrets(text)).toEqual([]);
    const chunks = chunkFile(text, digestRecordPath('claude', 's-2'), { records: true });
    expect(chunks.every((chunk) => chunk.kind === 'RAW')).toBe(true);
    expect(chunks[0]?.record).toMatchObject({
      kind: 'run_digest',
      trustClass: 'derived',
      runRef: { kind: 'run', id: 's-2' },
      createdAt: digest.endedAt,
    });
  });

  it('keeps paths stable and safe: agent and run id are path segments', () => {
    expect(digestRecordPath('claude', 'a/b c')).toBe('history/run-digests/claude/a%2Fb%20c.md');
    expect(patternRecordPath('FIX-0123456789ab')).toBe('history/fix-patterns/FIX-0123456789ab.md');
  });
});
