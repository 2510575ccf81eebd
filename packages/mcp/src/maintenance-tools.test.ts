import { describe, expect, it } from 'vitest';
import { callTool, connectedProjectPerTest } from './test-client';

const t = connectedProjectPerTest();

type Structured = Record<string, unknown> & {
  proposals?: { id: string; kind: string; state: string; unitIds: string[] }[];
  error?: { code: string };
};
const call = async (name: string, args?: Record<string, unknown>) =>
  (await callTool(t.client, name, args)) as { structured: Structured; isError?: boolean };

describe('the maintenance tools', () => {
  it('run, list, approve and undo proposals; decisions on unknown or malformed ids are typed', async () => {
    for (const text of [
      'Install dependencies with pnpm in this repository; npm is not used here.',
      'In this repository dependencies are installed with pnpm, never with npm.',
    ]) {
      expect((await t.cairn.add({ text })).action).toBe('created');
    }
    const ran = await call('memory_insights_run');
    expect(ran.structured).toMatchObject({ action: 'ran', proposed: { merge: 1 } });
    const listed = await call('memory_proposals');
    const merge = listed.structured.proposals![0]!;
    expect(merge).toMatchObject({ kind: 'merge', state: 'open' });
    expect(merge).not.toHaveProperty('patch');

    const approved = await call('memory_proposal_decide', { id: merge.id, decision: 'approve' });
    expect(approved.structured).toMatchObject({
      outcome: 'applied',
      proposal: { state: 'approved' },
    });
    const undone = await call('memory_proposal_decide', {
      id: merge.id,
      decision: 'undo',
      note: 'keep both',
    });
    expect(undone.structured).toMatchObject({ outcome: 'undone', proposal: { note: 'keep both' } });
    expect((await t.cairn.list()).every((unit) => unit.review === 'approved')).toBe(true);

    const missing = await call('memory_proposal_decide', {
      id: 'P-000000000000',
      decision: 'reject',
    });
    expect(missing.isError).toBe(true);
    expect(missing.structured.error?.code).toBe('NOT_FOUND');
    const bad = await call('memory_proposal_decide', { id: 'UNIT:x', decision: 'approve' });
    expect(bad.structured.error?.code).toBe('INVALID_INPUT');
    expect((await call('memory_stale_units')).structured).toEqual({ stale: [] });
  });
});
