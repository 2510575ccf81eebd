import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessInstallOptions } from '@cairn/core';
import { GITIGNORE_COMMENT } from '@cairn/harness-kit';
import { expectCode, makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeCodeHarness } from './claude-code-harness';

const harness = createClaudeCodeHarness();
const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
];
let tmp: TempProject;
let root: string;
let home: string;

function options(overrides: Partial<HarnessInstallOptions> = {}): HarnessInstallOptions {
  return {
    scope: 'project',
    projectRoot: root,
    homeDir: home,
    dryRun: false,
    cairnCommand: ['/opt/node 22/bin/node', "/srv/it's/cli/dist/bin.cjs"],
    env: {},
    ...overrides,
  };
}

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
async function writeJson(path: string, value: unknown) {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

const USER_SETTINGS = {
  model: 'opus',
  env: { FOO: '1' },
  permissions: { allow: ['Bash(ls:*)'], deny: ['Read(.env)'] },
  hooks: {
    SessionStart: [{ hooks: [{ type: 'command', command: 'echo mine' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
  },
};

beforeEach(async () => {
  tmp = await makeTempProject('cairn-cc-install-');
  root = join(tmp.root, 'project');
  home = join(tmp.root, 'home');
  await mkdir(root, { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(() => tmp.cleanup());

describe('project scope', () => {
  it('writes hooks, the MCP server and its approval; a second install changes nothing', async () => {
    const first = await harness.install(options());
    expect(first.changes.map((c) => [c.path, c.action])).toEqual([
      [join(root, '.claude/settings.json'), 'create'],
      [join(root, '.mcp.json'), 'create'],
      [join(root, '.claude/settings.local.json'), 'create'],
      [join(root, '.gitignore'), 'create'],
    ]);
    // settings.local.json holds this user's approvals: git ignores it.
    expect(await readFile(join(root, '.gitignore'), 'utf8')).toBe(
      `${GITIGNORE_COMMENT}\n/.claude/settings.local.json\n`,
    );
    const settings = await readJson(join(root, '.claude/settings.json'));
    expect(Object.keys(settings.hooks)).toEqual(EVENTS);
    expect(settings.hooks.SessionEnd[0].hooks[0].command).toBe(
      `'/opt/node 22/bin/node' '/srv/it'\\''s/cli/dist/bin.cjs' hook claude-code SessionEnd`,
    );
    expect(settings.permissions.allow).toEqual(['mcp__cairn']);
    expect((await readJson(join(root, '.mcp.json'))).mcpServers.cairn).toEqual({
      type: 'stdio',
      command: '/opt/node 22/bin/node',
      args: ["/srv/it's/cli/dist/bin.cjs", 'mcp'],
      env: {},
    });
    expect(await readJson(join(root, '.claude/settings.local.json'))).toEqual({
      enabledMcpjsonServers: ['cairn'],
    });

    const before = await snapshotTree(tmp.root);
    const second = await harness.install(options());
    expect(second.changes.every((c) => c.action === 'unchanged' && !c.backup)).toBe(true);
    expect(await snapshotTree(tmp.root)).toEqual(before);
  });

  it("keeps the user's settings and hooks, backs files up, and uninstall gives them back", async () => {
    await writeJson(join(root, '.claude/settings.json'), USER_SETTINGS);
    await writeJson(join(root, '.mcp.json'), { mcpServers: { other: { command: 'other-mcp' } } });
    await writeJson(join(root, '.claude/settings.local.json'), {
      enabledMcpjsonServers: ['other'],
    });
    await writeFile(join(root, '.gitignore'), 'node_modules/\r\ndist');
    const names = [
      '.claude/settings.json',
      '.mcp.json',
      '.claude/settings.local.json',
      '.gitignore',
    ];
    const originals = new Map<string, string>();
    for (const name of names) {
      originals.set(join(root, name), await readFile(join(root, name), 'utf8'));
    }

    const report = await harness.install(options());
    for (const change of report.changes) {
      expect(change.action).toBe('update');
      expect(change.backup).toContain(join(root, '.cairn', 'state', 'install-backups'));
      expect(await readFile(change.backup!, 'utf8')).toBe(originals.get(change.path));
    }
    const settings = await readJson(join(root, '.claude/settings.json'));
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({
      allow: ['Bash(ls:*)', 'mcp__cairn'],
      deny: ['Read(.env)'],
    });
    expect(settings.hooks.PreToolUse).toEqual(USER_SETTINGS.hooks.PreToolUse);
    expect(settings.hooks.SessionStart[0]).toEqual(USER_SETTINGS.hooks.SessionStart[0]);
    expect(settings.hooks.SessionStart).toHaveLength(2);
    expect(Object.keys((await readJson(join(root, '.mcp.json'))).mcpServers)).toEqual([
      'other',
      'cairn',
    ]);

    // Reinstalling from another location replaces Cairn's entries instead of adding more.
    await harness.install(options({ cairnCommand: ['cairn'] }));
    const again = await readJson(join(root, '.claude/settings.json'));
    expect(again.hooks.SessionStart).toHaveLength(2);
    expect(again.hooks.SessionStart[1].hooks[0].command).toBe(
      'cairn hook claude-code SessionStart',
    );

    const removal = await harness.uninstall(options());
    expect(removal.changes.map((c) => c.action)).toEqual(['update', 'update', 'update', 'update']);
    for (const name of names) {
      if (name !== '.claude/settings.json')
        expect(await readFile(join(root, name), 'utf8')).toBe(originals.get(join(root, name)));
    }
    expect(await readJson(join(root, '.claude/settings.json'))).toEqual(USER_SETTINGS);
    expect(await readJson(join(root, '.mcp.json'))).toEqual({
      mcpServers: { other: { command: 'other-mcp' } },
    });
    expect(await readJson(join(root, '.claude/settings.local.json'))).toEqual({
      enabledMcpjsonServers: ['other'],
    });
  });

  it('uninstall deletes the files only Cairn wrote, and a second uninstall changes nothing', async () => {
    await harness.install(options());
    const removal = await harness.uninstall(options());
    expect(removal.changes.map((c) => [c.path, c.action])).toEqual([
      [join(root, '.claude/settings.json'), 'delete'],
      [join(root, '.mcp.json'), 'delete'],
      [join(root, '.claude/settings.local.json'), 'delete'],
      [join(root, '.gitignore'), 'delete'],
      // The folder the install created, left empty.
      [join(root, '.claude'), 'delete'],
    ]);
    expect(await readdir(root)).toEqual(['.cairn']);
    const before = await snapshotTree(tmp.root);
    expect((await harness.uninstall(options())).changes).toEqual([]);
    expect(await snapshotTree(tmp.root)).toEqual(before);
  });

  it('refuses a damaged settings.json with INVALID_CONFIG and writes nothing', async () => {
    await mkdir(join(root, '.claude'), { recursive: true });
    await writeFile(join(root, '.claude/settings.json'), '{ "hooks": { ');
    const before = await snapshotTree(tmp.root);
    await expectCode(harness.install(options()), 'INVALID_CONFIG');
    await expectCode(harness.uninstall(options()), 'INVALID_CONFIG');
    expect(await snapshotTree(tmp.root)).toEqual(before);
  });

  it('dry-run previews the change and writes nothing', async () => {
    await writeJson(join(root, '.claude/settings.json'), USER_SETTINGS);
    const before = await snapshotTree(tmp.root);
    const report = await harness.install(options({ dryRun: true }));
    expect(report.dryRun).toBe(true);
    expect(report.changes.map((c) => c.action)).toEqual(['update', 'create', 'create', 'create']);
    expect(report.changes[0]!.preview).toContain('hook claude-code PostCompact');
    expect(await snapshotTree(tmp.root)).toEqual(before);
  });

  it('status reports what is installed and what is missing', async () => {
    expect(await harness.status(options())).toMatchObject({ installed: false, problems: [] });
    await harness.install(options());
    const ok = await harness.status(options());
    expect(ok).toMatchObject({
      harness: 'claude-code',
      installed: true,
      scope: 'project',
      problems: [],
    });
    expect(ok.details.join('\n')).toContain('PostCompact');

    const path = join(root, '.claude/settings.json');
    const settings = await readJson(path);
    delete settings.hooks.PostCompact;
    await writeJson(path, settings);
    await rm(join(root, '.claude/settings.local.json'));
    const broken = await harness.status(options());
    expect(broken.installed).toBe(true);
    expect(broken.problems.join('\n')).toContain('PostCompact');
    expect(broken.problems.join('\n')).toContain('enabledMcpjsonServers');
  });
});

describe('user scope', () => {
  it("edits ~/.claude/settings.json and ~/.claude.json, keeping Claude Code's state", async () => {
    const state = { numStartups: 3, projects: { '/x': { hasTrustDialogAccepted: true } } };
    await writeJson(join(home, '.claude.json'), state);
    const report = await harness.install(options({ scope: 'user' }));
    expect(report.changes.map((c) => [c.path, c.action])).toEqual([
      [join(home, '.claude/settings.json'), 'create'],
      [join(home, '.claude.json'), 'update'],
    ]);
    const config = await readJson(join(home, '.claude.json'));
    expect(config).toMatchObject(state);
    // No --root: a user-wide server serves the project Claude Code runs in.
    expect(config.mcpServers.cairn.args).toEqual(["/srv/it's/cli/dist/bin.cjs", 'mcp']);
    expect(await readdir(root)).toEqual([]);

    await harness.uninstall(options({ scope: 'user' }));
    expect(await readJson(join(home, '.claude.json'))).toEqual(state);
  });

  it('follows CLAUDE_CONFIG_DIR', async () => {
    const dir = join(tmp.root, 'claude-config');
    const report = await harness.install(
      options({ scope: 'user', env: { CLAUDE_CONFIG_DIR: dir } }),
    );
    expect(report.changes.map((c) => c.path)).toEqual([
      join(dir, 'settings.json'),
      join(dir, '.claude.json'),
    ]);
  });
});
