import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCairn, openMaintenance } from '@cairn/engine';
import { worstAnchorStates } from '@cairn/engine/internals';
import { makeStalenessRepo } from '@cairn/testkit';

/**
 * Staleness on a real git history (testkit's scripted repository): units
 * cite each case, are anchored at the first commit, then the history moves
 * a function, changes one, renames one, deletes one, reformats one and
 * leaves others alone. Each unit's state at the last commit against the
 * state expected; and the cost of a check, first and cached.
 */
export interface StalenessFigures {
  cases: { name: string; expected: string; got: string }[];
  /** First check at the new HEAD (git reads), and a second one (the cache). */
  firstCheckMs: number;
  cachedCheckMs: number;
}

export async function measureStaleness(): Promise<StalenessFigures> {
  const base = await mkdtemp(join(tmpdir(), 'cairn-bench-staleness-'));
  try {
    const home = join(base, 'home');
    const repo = makeStalenessRepo(join(base, 'repo'), home);
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    const cairn = await openCairn(repo.dir, { env, homeDir: home });
    try {
      await cairn.init();
      const ids: string[] = [];
      for (const c of repo.cases) {
        const added = await cairn.add({ text: c.text, category: 'fact' });
        if (added.action !== 'created') throw new Error(`could not add the unit of "${c.name}"`);
        ids.push(added.memoryId);
      }
      const maintenance = openMaintenance(cairn, { env });
      await maintenance.anchorChecks();
      repo.advance();
      let started = performance.now();
      const checks = await maintenance.anchorChecks();
      const firstCheckMs = performance.now() - started;
      started = performance.now();
      await maintenance.anchorChecks();
      const cachedCheckMs = performance.now() - started;
      const states = worstAnchorStates(checks);
      return {
        cases: repo.cases.map((c, i) => ({
          name: c.name,
          expected: c.expected,
          got: states.get(ids[i]!) ?? 'none',
        })),
        firstCheckMs,
        cachedCheckMs,
      };
    } finally {
      cairn.closeWorking();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
