import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from './cli';
import { cliRunner } from './test-cli';

/**
 * A newcomer's first hour: a git repository with a subfolder, no `.cairn/`
 * yet, the built binary run from the subfolder.
 */
let project: TempProject;
let deep: string;
beforeEach(async () => {
  project = await makeTempProject();
  spawnSync('git', ['init', '-q', project.root]);
  deep = join(project.root, 'src', 'deep');
  await mkdir(deep, { recursive: true });
});
afterEach(() => project.cleanup());

const atRoot = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });
const inDeep = cliRunner(() => deep, { CAIRN_TIMEZONE: 'UTC' });
const payload = (value: object) => JSON.stringify(value);

describe('outside an initialized project', () => {
  it('add and search in a subfolder say "not initialized: run `cairn init`" and create nothing', async () => {
    const before = await snapshotTree(project.root);
    const add = inDeep.run(['add', 'We use pnpm workspaces']);
    expect(add.code).toBe(1);
    expect(add.stderr).toContain('not initialized: run `cairn init`');
    expect(add.stderr).toContain(project.root);
    const search = inDeep.run(['search', 'pnpm']);
    expect(search.code).toBe(1);
    expect(search.stdout).not.toContain('(no results)');
    expect(search.stderr).toContain('not initialized: run `cairn init`');
    const json = JSON.parse(inDeep.run(['list', '--json']).stdout);
    expect(json).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(existsSync(join(deep, '.cairn'))).toBe(false);
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('init in a subfolder makes the project at the git root and prints the next steps', () => {
    const init = inDeep.run(['init']);
    expect(init.code, init.stderr).toBe(0);
    expect(existsSync(join(project.root, '.cairn', 'memory', 'MEMORY.md'))).toBe(true);
    expect(existsSync(join(deep, '.cairn'))).toBe(false);
    expect(init.stdout).toContain('the top of the git repository');
    expect(init.stdout).toContain('Next steps:');
    expect(init.stdout).toContain('cairn install <harness>');
    expect(JSON.parse(inDeep.run(['init', '--json']).stdout).nextSteps).toContain('cairn ui');
    // Every later command in the subfolder finds it.
    expect(inDeep.run(['add', 'We use pnpm workspaces']).code).toBe(0);
    expect(atRoot.run(['search', 'pnpm']).stdout).toContain('We use pnpm workspaces');
    expect(existsSync(join(deep, '.cairn'))).toBe(false);
  });
});

describe('ids, search and status', () => {
  it('a unique start of a unit id works wherever the id does', () => {
    atRoot.run(['init']);
    const added = JSON.parse(
      atRoot.run(['add', 'Deploys go through the staging gate', '--json']).stdout,
    );
    const id: string = added.memoryId;
    const short = id.slice(0, 'UNIT:'.length + 8);
    const get = atRoot.run(['get', short, '--json']);
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout).memory.memoryId).toBe(id);
    // Without the tag, too.
    expect(atRoot.run(['get', id.slice(5, 13)]).code).toBe(0);
    const replaced = JSON.parse(
      atRoot.run(['replace', short, 'Deploys go through the staging gate first', '--json']).stdout,
    );
    expect(replaced).toMatchObject({ ok: true, memoryId: id });
    expect(atRoot.run(['remove', short, '--json']).code).toBe(0);
    const gone = atRoot.run(['get', short]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/No unit id starts with|not found/i);
  });

  it('search results show the review state, as text and JSON', () => {
    atRoot.run(['init']);
    atRoot.run(['add', 'The release branch is cut on Tuesdays', '--category', 'fact']);
    const text = atRoot.run(['search', 'release', 'Tuesdays']);
    expect(text.stdout).toMatch(/\[fact, (approved|draft)\]/);
    const [hit] = JSON.parse(
      atRoot.run(['search', 'release', 'Tuesdays', '--json']).stdout,
    ).results;
    expect(hit.review).toMatch(/^(approved|draft)$/);
  });

  it('status shows the settings that are set and marks config files that do not exist', async () => {
    atRoot.run(['init']);
    const plain = atRoot.run(['status']).stdout;
    // The runner sets CAIRN_TIMEZONE: the one setting that is not a default, with its source.
    expect(plain).toMatch(/the other \d+ have their defaults/);
    expect(plain).toMatch(/timezone\s+"UTC"\s+\(env CAIRN_TIMEZONE\)/);
    expect(plain).toMatch(/user config .*config\.json \(does not exist\)/);
    expect(plain).not.toMatch(/memoryBackendType\s+"file"\s+\(default\)/);
    await writeFile(
      join(project.root, '.cairn', 'config.json'),
      '{"insightExtractionMinIntervalMs": 60000}\n',
    );
    const set = atRoot.run(['status']).stdout;
    expect(set).toMatch(/insightExtractionMinIntervalMs\s+60000\s+\(.*config\.json\)/);
    expect(set).not.toMatch(/project cfg .*\(does not exist\)/);
    expect(atRoot.run(['status', '--all']).stdout).toMatch(
      /memoryBackendType\s+"file"\s+\(default\)/,
    );
    const json = JSON.parse(atRoot.run(['status', '--json']).stdout);
    expect(json.configFilesExist).toEqual({ user: false, project: true });
  });
});

describe('expand', () => {
  it('lists the agents it knows, takes a prefix, and prints transcript entries (--full whole)', () => {
    atRoot.run(['init']);
    const ids = { agentId: 'cli', sessionKey: 'one', threadKey: 'topic-deploys' };
    atRoot.run(['lifecycle', 'session-start'], payload({ ...ids, cwd: project.root }));
    const long = `We decided to deploy on Fridays ${'because the queue is quiet '.repeat(10)}END`;
    atRoot.run(['lifecycle', 'user-prompt-submit'], payload({ ...ids, prompt: long }));
    const end = JSON.parse(atRoot.run(['lifecycle', 'session-end'], payload(ids)).stdout);
    const other = { agentId: 'other', sessionKey: 'two', threadKey: 'topic-other' };
    atRoot.run(['lifecycle', 'session-start'], payload({ ...other, cwd: project.root }));
    atRoot.run(['lifecycle', 'session-end'], payload(other));

    const noAgent = atRoot.run(['expand', end.nodeId]);
    expect(noAgent.code).toBe(2);
    expect(noAgent.stderr).toMatch(/cli \(1 sessions/);
    expect(noAgent.stderr).toMatch(/other \(\d+ sessions/);

    const short = (end.nodeId as string).slice(0, 'node:'.length + 8);
    const lines = atRoot.run(['expand', short, '--agent', 'cli']);
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.stdout).toMatch(/^ {2}#\d+ user .*We decided to deploy on Fridays/m);
    expect(lines.stdout).not.toContain('END');
    expect(lines.stdout).toContain('--full prints every entry whole');
    const full = atRoot.run(['expand', short, '--agent', 'cli', '--full']);
    expect(full.stdout).toContain('quiet END');
  });
});

describe('help, typos and numbers', () => {
  it('every command and subcommand has --help', () => {
    for (const command of COMMANDS) {
      const help = atRoot.run([command.name, '--help']);
      expect(help.code, command.name).toBe(0);
      expect(help.stdout, command.name).toContain(`Usage: cairn ${command.name}`);
      for (const sub of command.subcommands ?? []) {
        const subHelp = atRoot.run([command.name, sub.name, '--help']);
        expect(subHelp.stdout, `${command.name} ${sub.name}`).toContain(sub.usage.split(' [')[0]);
      }
    }
    expect(atRoot.run(['hook-server', '--help']).stdout).toContain('Usage: cairn hook-server');
    expect(atRoot.run(['help', 'search']).stdout).toContain('Usage: cairn search');
  });

  it('an unknown command, option or subcommand gets a suggestion', () => {
    const command = atRoot.run(['serach', 'pnpm']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('did you mean "search"?');
    const option = atRoot.run(['search', 'pnpm', '--lmit', '3']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('did you mean "--limit"?');
    const sub = atRoot.run(['hook-server', 'stpo']);
    expect(sub.stderr).toContain('did you mean "stop"?');
  });

  it('`<command> <subcommand> --help` prints that subcommand alone; a mistyped one gets a suggestion', () => {
    const runs = atRoot.run(['history', 'runs', '--help']);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toContain('Usage: cairn history runs [--limit N]');
    expect(runs.stdout).toMatch(/--limit N\s+runs listed at most .*\(a whole number\)/);
    expect(runs.stdout).not.toContain('--reason');
    const approve = atRoot.run(['review', 'approve', '--help']);
    expect(approve.stdout).toContain('Usage: cairn review approve <P-id|UNIT:id|FIX-id>');
    expect(approve.stdout).toContain('--note');
    expect(atRoot.run(['insights', 'status', '--help']).stdout).toContain(
      'Usage: cairn insights status',
    );
    expect(atRoot.run(['lifecycle', 'session-end', '--help']).stdout).toContain(
      'Usage: cairn lifecycle session-end',
    );
    const typos: [string[], string][] = [
      [['history', 'patern', 'FIX-1234'], 'pattern'],
      [['review', 'aprove', 'P-1234'], 'approve'],
      [['insights', 'statsu'], 'status'],
      [['lifecycle', 'session-strat'], 'session-start'],
    ];
    for (const [args, meant] of typos) {
      const run = atRoot.run(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(`did you mean "${meant}"?`);
    }
  });

  it('a numeric option that is not a number says "must be a number" and changes nothing', () => {
    atRoot.run(['init']);
    const bad = atRoot.run(['search', 'pnpm', '--limit', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number');
    expect(bad.stderr).not.toContain('NaN');
  });
});
