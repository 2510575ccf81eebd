import { join } from 'node:path';
import { makeStalenessRepo, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openMaintenance } from '../maintenance';
import { retrieveContextPack } from './retrieve-context-pack';
import { staleMarks } from './stale-marks';

/**
 * Packs show staleness (docs/PACKS.md "Stale units"): a unit whose cited
 * code changed since it was anchored, or is gone, carries a mark in the
 * injected text and in its reason; a fresh unit carries none; a
 * deprecated unit is never injected.
 */
describe('stale units in a pack', () => {
  let project: TempProject;
  let cairn: Cairn | undefined;
  afterEach(async () => {
    cairn?.closeWorking();
    await project.cleanup();
  });

  async function setUp() {
    project = await makeTempProject();
    const home = join(project.root, 'home');
    const repo = makeStalenessRepo(join(project.root, 'repo'), home);
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    cairn = await openCairn(repo.dir, { env, homeDir: home, overrides: { timezone: 'UTC' } });
    await cairn.init();
    const text = (name: string) => repo.cases.find((c) => c.name === name)!.text;
    const ids = {
      changed: (await cairn.add({ text: text('body changed'), category: 'fact' })) as {
        memoryId: string;
      },
      deleted: (await cairn.add({ text: text('file and function deleted'), category: 'fact' })) as {
        memoryId: string;
      },
      fresh: (await cairn.add({ text: text('untouched function'), category: 'fact' })) as {
        memoryId: string;
      },
    };
    const deprecated = await cairn.add({
      text: 'Money is formatted by `formatMoney` in src/util/format.ts with a dollar sign.',
      category: 'fact',
      review: 'deprecated',
    });
    return { repo, env, ids, deprecated: deprecated as { memoryId: string } };
  }

  const pack = (query: string) =>
    retrieveContextPack(
      { query, agentId: 'claude', budgetTokens: 2000, planes: ['long-term'] },
      { rootDir: cairn!.rootDir, settings: cairn!.settings, search: cairn!.search },
    );

  it('marks changed and deleted units, text and reason; fresh ones stay as they are', async () => {
    const { repo, env, ids } = await setUp();
    const maintenance = openMaintenance(cairn!, { env });
    // The units are anchored at the first commit; then the code moves on and is checked again.
    await maintenance.anchorChecks();
    const anchoredAt = repo.git('rev-parse', '--short=7', 'HEAD');
    // Nothing is marked before a check of the current HEAD.
    repo.advance();
    const before = await pack('verifyToken signed token');
    expect(before.text).toContain('`verifyToken` in src/auth/tokens.ts');
    expect(before.text).not.toContain('Code changed since');
    await maintenance.anchorChecks();

    const changed = await pack('verifyToken signed token');
    const item = changed.items.find((i) => i.id === ids.changed.memoryId);
    expect(item?.text).toMatch(new RegExp(`^Code changed since ${anchoredAt}: `));
    expect(item?.why).toContain(`Code changed since ${anchoredAt}`);
    expect(changed.text).toContain(`Code changed since ${anchoredAt}: \`verifyToken\``);

    const deleted = await pack('importLegacyCsv CSV exports');
    const gone = deleted.items.find((i) => i.id === ids.deleted.memoryId);
    expect(gone?.text).toContain(
      'Possibly stale (src/legacy/importer.ts `importLegacyCsv` is gone): Old CSV exports',
    );
    expect(gone?.why).toContain('Possibly stale');

    const fresh = await pack('loadConfig config files');
    const kept = fresh.items.find((i) => i.id === ids.fresh.memoryId);
    expect(kept?.text).toMatch(/^Config files are read by/);
    expect(kept?.why).not.toMatch(/stale|changed/i);
  });

  it('never injects a deprecated unit, whatever its code', async () => {
    const { env, deprecated } = await setUp();
    await openMaintenance(cairn!, { env }).anchorChecks();
    const result = await pack('formatMoney dollar sign');
    expect(result.items.map((i) => i.id)).not.toContain(deprecated.memoryId);
    expect(result.excluded).toContainEqual(
      expect.objectContaining({ id: deprecated.memoryId, reason: 'draft-or-deprecated' }),
    );
  });

  it('reads nothing where no check ever ran', async () => {
    project = await makeTempProject();
    expect(staleMarks(project.root).size).toBe(0);
  });
});
