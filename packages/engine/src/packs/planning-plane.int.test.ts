/**
 * The planning plane against a real `bd`. Beads' npm package downloads a
 * binary at install, which the machines that build Cairn cannot do, so
 * this file skips itself (visibly) unless BD_BIN names a `bd` binary:
 *
 *   BD_BIN=$(command -v bd) pnpm exec vitest run src/packs/planning-plane.int.test.ts
 *
 * The binary is reached by PATH lookup, as in production: its folder is
 * put on PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planningCandidates } from './planning-plane';

const bdBin = process.env.BD_BIN;

if (!bdBin) {
  describe('planning plane with a real bd', () => {
    it.skip('skipped: BD_BIN is not set (install bd from steveyegge/beads, then BD_BIN=$(command -v bd))', () => {});
  });
} else {
  describe('planning plane with a real bd', () => {
    let project: string;
    const env = {
      ...process.env,
      PATH: [dirname(bdBin), process.env.PATH ?? ''].join(delimiter),
      BEADS_NO_DAEMON: '1',
    };
    const bd = (...args: string[]) =>
      execFileSync('bd', args, { cwd: project, env, encoding: 'utf8' }).trim();
    const created = (...args: string[]) => {
      const json: unknown = JSON.parse(bd('create', ...args, '--json'));
      return (Array.isArray(json) ? json[0] : json) as { id: string };
    };

    beforeAll(async () => {
      project = await mkdtemp(join(tmpdir(), 'cairn-bd-'));
      execFileSync('git', ['init', '-q'], { cwd: project });
      bd('init', '--prefix', 'bd');
    });
    afterAll(() => rm(project, { recursive: true, force: true }));

    it('reads the issue, its acceptance criteria and dependencies through bd --json', async () => {
      const blocker = created('Token budget', '-p', '1');
      const target = created('Planning plane', '-p', '1', '--acceptance', 'reads bd show');
      bd('dep', 'add', target.id, blocker.id);
      const result = await planningCandidates({
        projectRoot: project,
        planningRef: target.id,
        env,
      });
      expect(result.source).toBe('bd');
      const ids = result.items.map((item) => item.id);
      expect(ids).toEqual([
        `beads:${target.id}`,
        `beads:${target.id}#acceptance`,
        `beads:${blocker.id}`,
      ]);
      expect(result.items[1]!.text).toContain('reads bd show');
    });
  });
}
