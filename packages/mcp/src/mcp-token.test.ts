import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { forgetSoundFolders } from '@cairn/core';
import { expectCode, makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateMcpToken, mcpTokenPath, rotateMcpToken } from './mcp-token';

let temp: TempProject;
let options: { env: NodeJS.ProcessEnv; homeDir: string };
beforeEach(async () => {
  forgetSoundFolders();
  temp = await makeTempProject('cairn-mcp-token-');
  options = { env: {}, homeDir: join(temp.root, 'home') };
});
afterEach(() => temp.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the MCP token file', () => {
  it('is created once, 0600 in a 0700 folder under ~/.local/state, and reused', () => {
    const path = mcpTokenPath(options);
    expect(path).toBe(join(temp.root, 'home', '.local', 'state', 'cairn', 'mcp-token'));
    const token = loadOrCreateMcpToken(options);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(path, 'utf8').trim()).toBe(token);
    expect(mode(path)).toBe(0o600);
    expect(mode(dirname(path))).toBe(0o700);
    expect(loadOrCreateMcpToken(options)).toBe(token);
  });

  it('follows XDG_STATE_HOME and rotates to a new token', () => {
    const state = join(temp.root, 'state');
    const xdg = { ...options, env: { XDG_STATE_HOME: state } };
    const first = loadOrCreateMcpToken(xdg);
    expect(mcpTokenPath(xdg)).toBe(join(state, 'cairn', 'mcp-token'));
    const second = rotateMcpToken(xdg);
    expect(second).not.toBe(first);
    expect(loadOrCreateMcpToken(xdg)).toBe(second);
    expect(mode(mcpTokenPath(xdg))).toBe(0o600);
  });

  it('is refused when group or others can read it, saying what to do', async () => {
    const path = mcpTokenPath(options);
    loadOrCreateMcpToken(options);
    chmodSync(path, 0o644);
    const error = await expectCode(
      Promise.resolve().then(() => loadOrCreateMcpToken(options)),
      'INVALID_CONFIG',
    );
    expect(error.message).toMatch(/group or others can read/);
    expect(error.message).toMatch(/chmod 600/);
  });

  it('is refused when it is a symlink, or in a folder others can write', async () => {
    const path = mcpTokenPath(options);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const elsewhere = join(temp.root, 'planted');
    writeFileSync(elsewhere, `${'a'.repeat(43)}\n`, { mode: 0o600 });
    symlinkSync(elsewhere, path);
    await expectCode(
      Promise.resolve().then(() => loadOrCreateMcpToken(options)),
      'INVALID_CONFIG',
    );
    // Rotating replaces the link itself, not the file it points to.
    const rotated = rotateMcpToken(options);
    expect(readFileSync(elsewhere, 'utf8').trim()).toBe('a'.repeat(43));
    expect(loadOrCreateMcpToken(options)).toBe(rotated);
    chmodSync(dirname(path), 0o777);
    const error = await expectCode(
      Promise.resolve().then(() => loadOrCreateMcpToken(options)),
      'INVALID_CONFIG',
    );
    expect(error.message).toMatch(/can be written by group or others/);
    expect(error.message).toContain(`chmod go-w ${dirname(path)}`);
  });

  it('is refused, and not created, below a folder others can write (the server does not start)', async () => {
    const open = join(temp.root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const xdg = { ...options, env: { XDG_STATE_HOME: join(open, 'state') } };
    const error = await expectCode(
      Promise.resolve().then(() => loadOrCreateMcpToken(xdg)),
      'INVALID_CONFIG',
    );
    expect(error.message).toContain(`${open} can be written by group or others`);
    expect(error.message).toContain(`run \`chmod go-w ${open}\``);
    expect(readdirSync(open)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)(
    'is refused below a folder another user owns, even in a 0700 folder of ours (needs root)',
    async () => {
      const squat = join(temp.root, 'squat');
      mkdirSync(squat, { mode: 0o755 });
      const xdg = { ...options, env: { XDG_STATE_HOME: join(squat, 'state') } };
      const token = loadOrCreateMcpToken(xdg);
      chownSync(squat, 65534, 65534);
      forgetSoundFolders();
      const error = await expectCode(
        Promise.resolve().then(() => loadOrCreateMcpToken(xdg)),
        'INVALID_CONFIG',
      );
      expect(error.message).toMatch(/belongs to another user \(uid 65534\)/);
      expect(error.message).not.toContain(token);
    },
  );

  it.runIf(process.getuid?.() === 0)('is refused when another user owns it', async () => {
    const path = mcpTokenPath(options);
    loadOrCreateMcpToken(options);
    chownSync(path, 65534, 65534);
    const error = await expectCode(
      Promise.resolve().then(() => loadOrCreateMcpToken(options)),
      'INVALID_CONFIG',
    );
    expect(error.message).toMatch(/another user/);
  });
});
