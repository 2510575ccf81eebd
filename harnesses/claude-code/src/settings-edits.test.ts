import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_HOOK_EVENTS } from './hook-payloads';
import {
  cairnHooksIn,
  hookCommand,
  isCairnHook,
  shellQuote,
  withCairnHooks,
  withoutCairnHooks,
} from './settings-edits';

const pluginFile = (path: string) =>
  readFile(new URL(`../marketplace/plugin/${path}`, import.meta.url), 'utf8').then(JSON.parse);

describe('hook commands', () => {
  it('quotes only what the shell would split or expand', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote('/a b/$HOME')).toBe("'/a b/$HOME'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(hookCommand(['cairn'], 'PostCompact')).toBe('cairn hook claude-code PostCompact');
  });

  it("recognises Cairn's hooks and nobody else's", () => {
    expect(
      isCairnHook({ type: 'command', command: "'/x y/node' /b.js hook claude-code SessionEnd" }),
    ).toBe(true);
    expect(isCairnHook({ type: 'command', command: 'cairn hook codex SessionEnd' })).toBe(false);
    expect(isCairnHook({ type: 'command', command: 'echo hook claude-code Stop' })).toBe(false);
    expect(isCairnHook({ type: 'http', url: 'http://x' })).toBe(false);
  });

  it("keeps the user's hooks that share a group with Cairn's", () => {
    const shared = {
      hooks: {
        SessionEnd: [
          {
            hooks: [
              { type: 'command', command: 'mine.sh' },
              { type: 'command', command: 'cairn hook claude-code SessionEnd' },
            ],
          },
        ],
      },
    };
    expect(withoutCairnHooks(shared)).toEqual({
      hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'mine.sh' }] }] },
    });
    const installed = withCairnHooks(shared, ['cairn']);
    expect(installed.hooks).toMatchObject({
      // Cairn's group takes the place of the group it was in; the user's hook stays.
      SessionEnd: [
        { hooks: [{ command: 'cairn hook claude-code SessionEnd' }] },
        { hooks: [{ command: 'mine.sh' }] },
      ],
    });
    expect(new Set(cairnHooksIn(installed).keys())).toEqual(new Set(CLAUDE_CODE_HOOK_EVENTS));
  });
});

describe('plugin', () => {
  it('runs the same hooks as a direct install, with cairn from PATH', async () => {
    const hooks = await pluginFile('hooks/hooks.json');
    expect(hooks.hooks).toEqual(withCairnHooks({}, ['cairn']).hooks);
    expect((await pluginFile('.mcp.json')).mcpServers.cairn).toEqual({
      command: 'cairn',
      args: ['mcp'],
    });
  });

  it('is published with the package and listed by the marketplace', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.files).toContain('marketplace');
    const manifest = JSON.parse(
      await readFile(
        new URL('../marketplace/.claude-plugin/marketplace.json', import.meta.url),
        'utf8',
      ),
    );
    expect(manifest.plugins).toMatchObject([{ name: 'cairn', source: './plugin' }]);
    expect((await pluginFile('.claude-plugin/plugin.json')).name).toBe('cairn');
  });
});
