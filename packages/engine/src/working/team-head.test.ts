import { describe, expect, it } from 'vitest';
import { renderHeadRegion } from './head-render';
import {
  regionOwner,
  renderTeamHeadRegion,
  TEAM_HEAD_FOOTER,
  threadHeadOfOtherClone,
  withoutUnknownLineage,
} from './team-head';
import { emptyThreadState, foldSummary, renderThreadHead } from './thread-state';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const unit = (n: number, updatedAt = `2026-01-0${1 + (n % 9)}T00:00:00.000Z`) => ({
  memoryId: `UNIT:${uuid(n)}`,
  text: `Constraint number ${n}.`,
  updatedAt,
});
const knowing =
  (...known: string[]) =>
  (ids: string[]) =>
    new Set(ids.filter((id) => known.includes(id)));

function personalHead(nodeIds: string[]) {
  let state = emptyThreadState('claude-code', 'proj.main', '2026-01-01T00:00:00.000Z');
  for (const id of nodeIds) {
    state = foldSummary(
      state,
      {
        status: 'Alice moved billing to the queue',
        decisions: [],
        commitments: [],
        blockers: [],
        nextSteps: ['Alice: load test the queue'],
      },
      id,
      '2026-01-02T00:00:00.000Z',
      true,
    );
  }
  return {
    state,
    region: renderHeadRegion({
      threads: [state],
      units: [],
      budgetTokens: 800,
      now: '2026-01-02T00:00:00.000Z',
    }),
  };
}

describe('the team head of MEMORY.md', () => {
  it('is the same for the same units in any order, sorted by unit id, without a time', () => {
    const units = [unit(7), unit(2), unit(5)];
    const one = renderTeamHeadRegion({ units, budgetTokens: 800 });
    expect(renderTeamHeadRegion({ units: [...units].reverse(), budgetTokens: 800 })).toBe(one);
    const ids = [...one.matchAll(/`(UNIT:[^`]+)`/g)].map((m) => m[1]);
    expect(ids).toEqual([`UNIT:${uuid(2)}`, `UNIT:${uuid(5)}`, `UNIT:${uuid(7)}`]);
    expect(one.endsWith(TEAM_HEAD_FOOTER)).toBe(true);
    expect(one).not.toMatch(/20\d\d-\d\d-\d\d/);
    expect(renderTeamHeadRegion({ units: [], budgetTokens: 800 })).toContain(
      'No approved decisions or preferences yet.',
    );
  });

  it('keeps the newest units that fit its budget', () => {
    const units = Array.from({ length: 200 }, (_, n) =>
      unit(
        n,
        `2026-01-01T00:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`,
      ),
    );
    const region = renderTeamHeadRegion({ units, budgetTokens: 300 });
    expect(Math.ceil(region.length / 4)).toBeLessThanOrEqual(300);
    expect(region).toContain(`UNIT:${uuid(199)}`);
    expect(region).not.toContain(`UNIT:${uuid(0)}\``);
  });

  it("tells a team render, this clone's old head, another clone's and a person's edit apart", () => {
    const team = renderTeamHeadRegion({ units: [unit(1)], budgetTokens: 800 });
    const mine = `node:${uuid(11)}`;
    const theirs = `node:${uuid(22)}`;
    const knows = knowing(mine);
    expect(regionOwner('', undefined, knows)).toBe('empty');
    expect(regionOwner(team, undefined, knows)).toBe('team');
    expect(regionOwner(personalHead([mine]).region, undefined, knows)).toBe('own');
    expect(regionOwner(personalHead([theirs]).region, undefined, knows)).toBe('other');
    expect(regionOwner(personalHead([theirs]).region, personalHead([theirs]).region, knows)).toBe(
      'own',
    );
    expect(regionOwner(`${team}\n- a line someone typed`, team, knows)).toBe('edited');
    expect(regionOwner('Notes I put between the markers.', undefined, knows)).toBe('edited');
  });

  it("leaves a thread head another clone rendered to that clone, and edits this clone's", () => {
    const theirs = `node:${uuid(22)}`;
    const mine = `node:${uuid(11)}`;
    const other = renderThreadHead(personalHead([theirs]).state);
    const own = renderThreadHead(personalHead([mine]).state);
    expect(threadHeadOfOtherClone(other, undefined, knowing(mine))).toBe(true);
    expect(threadHeadOfOtherClone(other, other, knowing(mine))).toBe(false);
    expect(threadHeadOfOtherClone(own.replace('Alice', 'Bob'), own, knowing(mine))).toBe(false);
    expect(threadHeadOfOtherClone('My own notes.', undefined, knowing(mine))).toBe(false);
  });

  it('takes out the lineage ids this clone cannot expand, and keeps what the head says', () => {
    const mine = `node:${uuid(11)}`;
    const theirs = [`node:${uuid(21)}`, `node:${uuid(22)}`];
    const { region } = personalHead([...theirs, mine]);
    expect(region).toContain(theirs[0]);
    const kept = withoutUnknownLineage(region, knowing(mine));
    for (const id of theirs) expect(kept).not.toContain(id);
    expect(kept).toContain(`\`${mine}\``);
    expect(kept).toContain('Alice moved billing to the queue');
    const none = withoutUnknownLineage(personalHead(theirs).region, knowing());
    expect(none).not.toContain('node:');
    expect(none).not.toContain('### Lineage');
    expect(none).toContain('Alice: load test the queue');
  });
});
