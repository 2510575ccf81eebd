import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LifecycleHost, openLifecycleHost } from './lifecycle-host';
import { openCairn } from './open-cairn';
import { lifecycleLogPath } from './working';

let project: TempProject;
let host: LifecycleHost;
const env = { CAIRN_TIMEZONE: 'UTC' };
const ids = { agentId: 'claude-code', sessionKey: 'ses-host' };

beforeEach(async () => {
  project = await makeTempProject('cairn-host-');
  const cairn = await openCairn(project.root, { env });
  await cairn.init();
  await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
  await cairn.close();
});
afterEach(async () => {
  await host?.close();
  await project.cleanup();
});

const prompt = (text: string) => ({ ...ids, prompt: text });

describe('a lifecycle host', () => {
  it('finds the project above a folder, and no project where there is none', async () => {
    host = openLifecycleHost({ env });
    const inside = join(project.root, 'src', 'deep');
    await mkdir(inside, { recursive: true });
    expect(host.projectRoot(inside)).toBe(project.root);
    expect(host.projectRoot(project.root, 'gone', project.root)).toBeUndefined();
    expect(host.projectRoot(inside, '.', project.root)).toBe(project.root);
    const outside = await makeTempProject('cairn-host-none-');
    try {
      expect(host.projectRoot(outside.root)).toBeUndefined();
    } finally {
      await outside.cleanup();
    }
  });

  it('keeps a project open between events, and opens it again when its config or files change', async () => {
    host = openLifecycleHost({ env });
    const first = await host.open(project.root);
    expect(await host.open(project.root)).toBe(first);
    expect(host.roots()).toEqual([project.root]);
    await writeFile(
      join(project.root, '.cairn', 'config.json'),
      JSON.stringify({ limits: { searchLimit: 7 } }),
    );
    const edited = await host.open(project.root);
    expect(edited).not.toBe(first);
    expect(edited.settings.limits.searchLimit).toBe(7);
    // A database moved aside after an event: the kept connection would write to the old file.
    await host.deliver(edited, { name: 'test prompt' }, (c) =>
      c.lifecycle.userPromptSubmit(prompt('which cluster?')),
    );
    const lineage = join(project.root, '.cairn', 'state', 'lineage.db');
    expect(await host.open(project.root)).toBe(edited);
    await rename(lineage, `${lineage}.moved`);
    expect(await host.open(project.root)).not.toBe(edited);
  });

  it('fails open: a failed event is logged for doctor and the host log, and answered as failed', async () => {
    const told: string[] = [];
    host = openLifecycleHost({ env, log: (message) => told.push(message) });
    const cairn = await host.open(project.root);
    const outcome = await host.deliver(cairn, { name: 'test bad', sessionKey: 'ses-bad' }, (c) =>
      c.lifecycle.userPromptSubmit({ ...ids, prompt: 42 } as never),
    );
    expect(outcome.ok).toBe(false);
    const logged = readFileSync(lifecycleLogPath(project.root), 'utf8');
    expect(logged).toContain('"event":"test bad"');
    expect(logged).toContain('"sessionKey":"ses-bad"');
    expect(told.join('\n')).toContain('INVALID_INPUT');
    // A plugin's handle: no project, or a failure, is undefined and never thrown.
    expect(await host.handle(project.root, { name: 'test' }, async () => 'answered')).toBe(
      'answered',
    );
    const failed = await host.handle(project.root, { name: 'test throw' }, async () => {
      throw new Error('boom');
    });
    expect(failed).toBeUndefined();
    expect(told.at(-1)).toContain('boom');
  });

  it('closes everything it opened: the stores fold their write-ahead logs in', async () => {
    host = openLifecycleHost({ env });
    const cairn = await host.open(project.root);
    const outcome = await host.deliver(cairn, { name: 'test prompt' }, (c) =>
      c.lifecycle.userPromptSubmit(prompt('which staging cluster?')),
    );
    expect(outcome).toMatchObject({ ok: true });
    const state = join(project.root, '.cairn', 'state');
    expect(existsSync(join(state, 'lineage.db'))).toBe(true);
    await host.close();
    expect(host.roots()).toEqual([]);
    expect(readdirSync(state).filter((name) => name.endsWith('-wal'))).toEqual([]);
  });

  it('with `event` lifetime, closes each project after its event', async () => {
    host = openLifecycleHost({ env, keep: 'event' });
    const first = await host.open(project.root);
    await host.deliver(first, { name: 'test prompt' }, (c) =>
      c.lifecycle.userPromptSubmit(prompt('which cluster?')),
    );
    const state = join(project.root, '.cairn', 'state');
    expect(readdirSync(state).filter((name) => name.endsWith('-wal'))).toEqual([]);
    expect(await host.open(project.root)).not.toBe(first);
    expect(host.roots()).toEqual([]);
  });
});
