import { describe, expect, it } from 'vitest';
import { threadHeadText } from './head-items';
import { renderThreadHead, type ThreadHeadState } from './thread-state';

const state = (over: Partial<ThreadHeadState>): ThreadHeadState => ({
  agentId: 'claude-code',
  threadKey: 'ky.main',
  status: 'retries are capped',
  decisions: [],
  openLoops: [],
  nextAction: 'add jitter',
  lineage: [],
  sessions: 1,
  updatedAt: '2026-05-01T00:00:00.000Z',
  ...over,
});

describe('thread head text', () => {
  it('never doubles a label: a status or next action stored with its own label shows without it', () => {
    const head = state({
      status: 'Next: wire the hook into the CLI',
      nextAction: 'next action: add the changeset',
      decisions: ['DECISION: keep SQLite'],
    });
    const text = threadHeadText(head);
    expect(text).toContain('Status: wire the hook into the CLI');
    expect(text).toContain('Next action: add the changeset');
    expect(text).toContain('- keep SQLite');
    const file = renderThreadHead(head);
    expect(file).toContain('**Status:** wire the hook into the CLI');
    for (const rendered of [text, file]) {
      expect(rendered).not.toMatch(
        /(?:Status|Next action|Decision)s?:\**\s+(?:Next|Status|Decision)/i,
      );
    }
  });
});
