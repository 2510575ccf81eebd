import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cairnStatePath,
  HEAD_END_MARKER,
  HEAD_START_MARKER,
  memoryWorkspacePath,
} from '@cairn/core';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });

describe('cairn doctor tells the truth', () => {
  it('a corrupt lineage.db, a binary daily file and a runaway head: exit 1, each named', async () => {
    cli.run(['init']);
    expect(cli.run(['doctor']).code).toBe(0);
    await mkdir(cairnStatePath(project.root), { recursive: true });
    await writeFile(join(cairnStatePath(project.root), 'lineage.db'), 'garbage'.repeat(1000));
    const memory = memoryWorkspacePath(project.root);
    await writeFile(join(memory, '2026-01-01.md'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0]));
    await writeFile(
      join(memory, 'MEMORY.md'),
      `${HEAD_START_MARKER}\n${'runaway line\n'.repeat(2000)}${HEAD_END_MARKER}\n`,
    );
    const before = await snapshotTree(project.root);
    const text = cli.run(['doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^ {2}! error \.cairn\/state\/lineage\.db: .+ — .+backup/m);
    expect(text.stdout).toMatch(/^ {2}! error \.cairn\/memory\/2026-01-01\.md: .*NUL bytes/m);
    expect(text.stdout).toMatch(/^ {2}! warning \.cairn\/memory\/MEMORY\.md: runaway head/m);
    expect(text.stdout).toMatch(/\nproblems found/);
    expect(text.stdout).toMatch(/^stores: memory \d.* lineage \d.*, index /m);
    const json = cli.run(['doctor', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.findings.map((f: { path: string }) => f.path).sort()).toEqual([
      '.cairn/memory/2026-01-01.md',
      '.cairn/memory/MEMORY.md',
      '.cairn/state/lineage.db',
    ]);
    expect(report.stores.map((s: { store: string }) => s.store)).toEqual([
      'memory',
      'lineage',
      'heads',
      'state',
      'index',
    ]);
    // Doctor reads; it never writes the workspace or creates databases.
    expect(await snapshotTree(project.root)).toEqual(before);
  });
});
