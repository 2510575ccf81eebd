import { estimateTokens, getDefaultMemoryScaffold } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { threadHeadText } from './head-items';
import { currentHeadRegion, renderHeadRegion, replaceHeadRegion } from './head-render';
import {
  emptyThreadState,
  foldSummary,
  renderThreadHead,
  type ThreadHeadState,
} from './thread-state';

function thread(i: number): ThreadHeadState {
  const base = emptyThreadState(
    'agent-a',
    `topic-${i}`,
    `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
  );
  return foldSummary(
    base,
    {
      status: `Working on feature ${i} of the billing service`,
      decisions: [`Decision ${i}: use queue ${i}`],
      commitments: [`Ship part ${i}`],
      blockers: [`Blocked on review ${i}`],
      nextSteps: [`Write tests for ${i}`],
    },
    `node:${i}`,
    `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z`,
    true,
  );
}

describe('Tier 1 head rendering', () => {
  it('stays within the token budget after 500 sessions across many threads', () => {
    const threads = Array.from({ length: 500 }, (_, i) => thread(i));
    const units = Array.from({ length: 300 }, (_, i) => ({
      memoryId: `UNIT:${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
      text: `Always run the migration check ${i} before deploying.`,
      updatedAt: '2026-01-01T00:00:00.000Z',
    }));
    for (const budget of [200, 800, 1200]) {
      const region = renderHeadRegion({
        threads,
        units,
        budgetTokens: budget,
        now: '2026-02-01T00:00:00.000Z',
      });
      expect(estimateTokens(region)).toBeLessThanOrEqual(budget);
      expect(region).toContain('### Active threads');
    }
  });

  it('puts the most recent thread first, with its next action, loops, constraints and lineage', () => {
    const region = renderHeadRegion({
      threads: [thread(1), thread(27)],
      units: [
        {
          memoryId: 'UNIT:x',
          text: 'Never force-push main.',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      budgetTokens: 2000,
      now: '2026-02-01T00:00:00.000Z',
    });
    expect(region.indexOf('topic-27')).toBeLessThan(region.indexOf('topic-1`'));
    for (const text of [
      '### Next actions',
      'Write tests for 27',
      'Blocked on review 27',
      'Never force-push main.',
      '`node:27`',
    ]) {
      expect(region).toContain(text);
    }
  });
});

describe('managed region replacement', () => {
  it('keeps every byte outside the region', () => {
    const before = `# Mine\n\nuser text ✓\n${getDefaultMemoryScaffold()}\ntrailing  spaces  \n`;
    const { content, keptUserEdit } = replaceHeadRegion(before, 'NEW HEAD');
    expect(keptUserEdit).toBe(false);
    expect(currentHeadRegion(content)).toBe('NEW HEAD');
    const start = before.indexOf('<!-- cairn:head:start -->');
    expect(content.startsWith(before.slice(0, start))).toBe(true);
    const tail = before.slice(
      before.indexOf('<!-- cairn:head:end -->') + '<!-- cairn:head:end -->'.length,
    );
    expect(content.endsWith(tail)).toBe(true);
  });

  it('keeps an edit made inside the region since the last render', () => {
    const rendered = replaceHeadRegion(getDefaultMemoryScaffold(), 'OLD').content;
    const edited = rendered.replace('OLD', 'OLD plus a line the user typed');
    const update = replaceHeadRegion(edited, 'NEW', 'OLD');
    expect(update.keptUserEdit).toBe(true);
    expect(currentHeadRegion(update.content)).toBe('NEW');
    expect(update.content).toContain('OLD plus a line the user typed');
  });

  it('appends the region when the markers are missing', () => {
    const update = replaceHeadRegion('# Just mine\n', 'HEAD');
    expect(update.content).toBe(
      '# Just mine\n\n<!-- cairn:head:start -->\nHEAD\n<!-- cairn:head:end -->\n',
    );
  });
});

describe('thread heads', () => {
  it('render status, decisions, open loops, next action and lineage', () => {
    const text = renderThreadHead(thread(3));
    for (const part of [
      '**Status:** Working on feature 3',
      '## Decisions',
      '## Open loops',
      '**Next action:** Write tests for 3',
      '`node:3`',
    ]) {
      expect(text).toContain(part);
    }
  });
});

describe('labels said once', () => {
  it('shows a thread head folded with its items labelled as `Next action: …`, not `Next action: Next: …`', () => {
    const state = {
      ...emptyThreadState('claude', 'ky.main', '2026-05-01T00:00:00.000Z'),
      status: 'Retries capped.',
      nextAction: 'Next: add jitter to the retries',
      decisions: ['Decision: cap Retry-After at backoffLimit'],
    };
    const text = threadHeadText(state);
    expect(text).toContain('Next action: add jitter to the retries');
    expect(text).toContain('- cap Retry-After at backoffLimit');
    expect(text).not.toMatch(/(Next|Decision): (Next|Decision):/);
    const region = renderHeadRegion({ threads: [state], units: [], budgetTokens: 800, now: 'now' });
    expect(region).toContain('`ky.main`: add jitter to the retries');
  });
});
