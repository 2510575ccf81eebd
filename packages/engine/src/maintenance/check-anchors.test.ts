import { join } from 'node:path';
import { makeStalenessRepo, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnchorCheck } from '../anchors';
import { cachedStaleness } from '../anchors';
import { type Cairn, openCairn } from '../index';
import { extractCitations, findDefinition, spanAt, spanHash } from './code-citations';
import { openMaintenance } from './maintenance-api';

function worstStates(checks: readonly AnchorCheck[]): Map<string, string> {
  const rank: Record<string, number> = {
    fresh: 0,
    unverifiable: 0,
    moved: 1,
    changed: 2,
    deleted: 3,
  };
  const states = new Map<string, string>();
  for (const check of checks) {
    const seen = states.get(check.anchor.memoryId);
    if (seen === undefined || rank[check.state]! > rank[seen]!)
      states.set(check.anchor.memoryId, check.state);
  }
  return states;
}

describe('staleness anchored in code', () => {
  let project: TempProject;
  let cairn: Cairn | undefined;
  afterEach(async () => {
    cairn?.closeWorking();
    await project.cleanup();
  });

  it('classifies each case of a scripted git history, and caches the check per HEAD', async () => {
    project = await makeTempProject();
    const repo = makeStalenessRepo(join(project.root, 'repo'), join(project.root, 'home'));
    const env = { PATH: process.env.PATH ?? '', HOME: join(project.root, 'home') };
    cairn = await openCairn(repo.dir, {
      env,
      homeDir: join(project.root, 'home'),
      overrides: { timezone: 'UTC' },
    });
    await cairn.init();
    const ids = new Map<string, string>();
    for (const c of repo.cases) {
      const added = await cairn.add({ text: c.text, category: 'fact' });
      if (added.action !== 'created') throw new Error(`not added: ${c.name}`);
      ids.set(c.name, added.memoryId);
    }
    const maintenance = openMaintenance(cairn, { env });
    const first = worstStates(await maintenance.anchorChecks());
    for (const c of repo.cases) {
      expect(first.get(ids.get(c.name)!) ?? 'none', c.name).toBe(
        c.expected === 'none' ? 'none' : 'fresh',
      );
    }
    repo.advance();
    const checks = await maintenance.anchorChecks();
    const states = worstStates(checks);
    for (const c of repo.cases)
      expect(states.get(ids.get(c.name)!) ?? 'none', c.name).toBe(c.expected);
    const moved = checks.find((check) => check.state === 'moved');
    expect(moved?.movedTo).toEqual({ path: 'src/auth/sign.ts', line: 1 });

    // The pack's hook point reads the same answer from the cache, with no git process.
    const cached = cachedStaleness(repo.dir);
    expect(cached?.get(ids.get('file and function deleted')!)).toBe('deleted');

    const stale = await maintenance.staleUnits();
    expect(stale.map((s) => s.state).sort()).toEqual(['changed', 'changed', 'deleted', 'moved']);
    // A run proposes deprecating the deleted one and re-anchoring the moved one; nothing is deleted.
    const run = await maintenance.run();
    const kinds = run.action === 'ran' ? run.proposals.map((p) => p.kind).sort() : [];
    expect(kinds).toEqual(['deprecation', 'reanchor']);
    expect((await cairn.list()).length).toBe(repo.cases.length);
    const reanchor = (await maintenance.proposals()).find((p) => p.kind === 'reanchor')!;
    await maintenance.approve(reanchor.id);
    const after = worstStates(await maintenance.anchorChecks());
    expect(after.get(ids.get('moved to another file')!)).toBe('fresh');
  });

  it('finds paths, lines and backticked symbols, and leaves prose alone', () => {
    expect(
      extractCitations('See `parseConfig()` in src/config.ts:42 and `Store.openStore`.'),
    ).toEqual({
      paths: [{ path: 'src/config.ts', line: 42 }],
      symbols: ['parseConfig', 'openStore'],
    });
    expect(extractCitations('We use pnpm, e.g. for installs; version 1.2.3 is fine.')).toEqual({
      paths: [],
      symbols: [],
    });
  });

  it('anchors a command at its package.json script or Makefile target', () => {
    expect(
      extractCitations('Run `pnpm db:migrate` then `make seed`; `pnpm install` first.').paths,
    ).toEqual([
      { path: 'package.json', symbol: 'db:migrate' },
      { path: 'Makefile', symbol: 'seed' },
    ]);
    const pkg =
      '{\n  "scripts": {\n    "build": "tsup",\n    "db:migrate": "knex migrate:latest"\n  }\n}\n';
    const line = findDefinition(pkg, 'db:migrate');
    expect(line).toBe(4);
    expect(spanHash(spanAt(pkg, line!))).not.toBe(
      spanHash(spanAt(pkg.replace('migrate:latest', 'migrate:up'), line!)),
    );
    expect(findDefinition('.PHONY: seed\nseed: build\n\tnode seed.js\n', 'seed')).toBe(2);
    // A property of the same name is not a definition.
    expect(findDefinition('const options = {\n  seed: 42,\n};\n', 'seed')).toBeUndefined();
  });

  it('outside git every anchor is unverifiable: nothing is called stale', async () => {
    project = await makeTempProject();
    cairn = await openCairn(project.root, {
      env: { PATH: process.env.PATH ?? '' },
      homeDir: join(project.root, 'home'),
    });
    await cairn.init();
    await cairn.add({ text: '`loadConfig` in src/config/load-config.ts reads the config.' });
    const maintenance = openMaintenance(cairn, { env: { PATH: process.env.PATH ?? '' } });
    expect(await maintenance.staleUnits()).toEqual([]);
  });
});
