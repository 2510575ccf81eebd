import type { TempProject } from '@cairn/testkit';
import { seededRandom } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import type { PackInput } from './compose-pack';
import type { PlaneGatherer } from './pack-planes';
import { PACK_PLANES, type PackPlane, TRUST_CLASSES } from './pack-types';
import { retrieveContextPack } from './retrieve-context-pack';
import { estimateCounter, loadTokenizer, type TokenCounter } from './token-estimate';

/** mulberry32: seeded, so a failing case replays. */
function seeded(seed: number) {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T };
}
type Random = ReturnType<typeof seeded>;

/** Words, code, markers, secrets, CJK, emoji and long lines: what packs meet. */
const PIECES = [
  'deploy the gateway after the migration',
  'const x = await fetch(`http://localhost:3000`);',
  '<!-- cairn:pack:end --> </system> <|im_start|>',
  'AKIAIOSFODNN7EXAMPLE password=hunter2',
  '数据库迁移需要先运行',
  '🚀✅ done',
  '# heading\n> quote\n```\nfence\n```',
  'x'.repeat(300),
];

function text(random: Random): string {
  return Array.from({ length: random.int(0, 12) }, () => random.pick(PIECES)).join(
    random.pick([' ', '\n', '\n\n']),
  );
}

function candidates(random: Random, plane: PackPlane): PackInput[] {
  return Array.from({ length: random.int(0, 15) }, (_, i) => ({
    id: `${plane}-${i}`,
    plane,
    text: text(random),
    source: random.pick(['unit', 'summary', 'beads', 'doc']),
    trustClass: random.pick(TRUST_CLASSES),
    provenance: {
      kind: 'unit' as const,
      id: `u-${i}`,
      file: `memory/${'deep/'.repeat(random.int(0, 5))}u.md`,
      line: random.int(1, 900),
    },
    score: random.next(),
    why: 'generated',
    ...(random.next() < 0.1 ? { reviewState: random.pick(['draft', 'deprecated'] as const) } : {}),
    ...(random.next() < 0.2 ? { dedupeKey: `k-${random.int(0, 3)}` } : {}),
  }));
}

function request(random: Random) {
  const planes = PACK_PLANES.filter(() => random.next() < 0.6);
  const decade = random.int(0, 3);
  return {
    query: random.next() < 0.2 ? '' : text(random).slice(0, 20_000),
    agentId: 'claude',
    budgetTokens: random.int(decade === 0 ? 0 : 2 * 10 ** decade, 2 * 10 ** (decade + 1)),
    ...(random.next() < 0.3 || planes.length === 0 ? {} : { planes }),
  };
}

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

async function checkCases(
  seed: number,
  cases: number,
  counter: TokenCounter,
  recount: TokenCounter = counter,
) {
  const random = seeded(seed);
  let filled = 0;
  for (let n = 0; n < cases; n += 1) {
    const gatherers = Object.fromEntries(
      PACK_PLANES.map((plane) => {
        const yielded = candidates(random, plane);
        return [plane, (() => ({ candidates: yielded })) satisfies PlaneGatherer];
      }),
    );
    const asked = request(random);
    const pack = await retrieveContextPack(asked, {
      rootDir: project.root,
      settings: cairn.settings,
      search: cairn.search,
      counter,
      gatherers,
    });
    const used = recount.count(pack.text);
    expect(used, `case ${n} of seed ${seed}: ${JSON.stringify(pack.budget)}`).toBeLessThanOrEqual(
      asked.budgetTokens,
    );
    expect(pack.budget.used).toBeLessThanOrEqual(asked.budgetTokens);
    if (asked.budgetTokens === 0) expect(pack.text).toBe('');
    if (pack.items.length > 0) filled += 1;
  }
  // Many packs hold items (tiny budgets hold none, and a generated query often matches nothing
  // relevant): the property is not met by leaving packs empty.
  expect(filled).toBeGreaterThan(cases / 4);
}

// Two hundred whole packs each: on a loaded 2-core runner they take longer than the default 5 s.
describe('retrieveContextPack: the rendered pack never exceeds its budget', () => {
  it('200 generated requests costed with the estimate, the text counted again with it', async () => {
    await checkCases(14_009, 200, estimateCounter);
  }, 60_000);

  it('the same 200 requests costed with the estimate hold by the real count (o200k_base)', async () => {
    await checkCases(14_009, 200, estimateCounter, await loadTokenizer());
  }, 60_000);

  it('40 generated requests costed with o200k_base, the text counted again with it', async () => {
    await checkCases(90_014, 40, await loadTokenizer());
  });
});
