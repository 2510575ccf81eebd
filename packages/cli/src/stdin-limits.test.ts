import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject('cairn-stdin-');
  cliRunner(() => project.root).run(['init']);
});
afterEach(() => project.cleanup());

function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const home = join(project.root, 'home');
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: project.root,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'close').then(([code]) => ({ code, stdout, stderr }));
  return { child, exited };
}

/**
 * Writes `bytes` of a JSON payload to the child's stdin; resolves with the
 * write error (EPIPE when the child stopped reading and went away first).
 */
async function feed(child: ChildProcess, bytes: number): Promise<NodeJS.ErrnoException | null> {
  const stdin = child.stdin!;
  const piece = 'x'.repeat(1024 * 1024);
  const failed = new Promise<NodeJS.ErrnoException>((resolve) => stdin.once('error', resolve));
  const written = (async () => {
    stdin.write('{"prompt":"');
    for (let sent = 0; sent < bytes && !stdin.destroyed; sent += piece.length) {
      if (!stdin.write(piece)) await Promise.race([once(stdin, 'drain'), failed]);
    }
    if (!stdin.destroyed) stdin.end('"}');
    return null;
  })();
  return Promise.race([written, failed]);
}

describe('stdin limits of the real `cairn` process', { timeout: 60_000 }, () => {
  it('a hook stops reading a 50 MB payload at 8 MB and exits 0, writing nothing', async () => {
    const before = await snapshotTree(join(project.root, '.cairn'));
    const { child, exited } = start(['hook', 'claude-code', 'UserPromptSubmit']);
    const writeError = await feed(child, 50 * 1024 * 1024);
    const result = await exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^cairn hook claude-code UserPromptSubmit: INVALID_INPUT: Standard input is larger than 8 MB/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // It went away without reading the rest: the writer saw the pipe close.
    expect(writeError?.code).toBe('EPIPE');
    expect(await snapshotTree(join(project.root, '.cairn'))).toEqual(before);
  });

  it('a hook whose stdin never ends gives up after CAIRN_HOOK_STDIN_TIMEOUT_MS and exits 0', async () => {
    const before = await snapshotTree(join(project.root, '.cairn'));
    const { child, exited } = start(['hook', 'claude-code', 'UserPromptSubmit'], {
      CAIRN_HOOK_STDIN_TIMEOUT_MS: '300',
    });
    child.stdin.on('error', () => {});
    child.stdin.write('{"prompt":"never finished');
    const result = await exited;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/INVALID_INPUT: Standard input did not end within 300 ms/);
    expect(await snapshotTree(join(project.root, '.cairn'))).toEqual(before);
  });

  it('`cairn add` refuses stdin over 32 MB with INVALID_INPUT and adds nothing', async () => {
    const before = await snapshotTree(join(project.root, '.cairn'));
    const { child, exited } = start(['add']);
    const writeError = await feed(child, 40 * 1024 * 1024);
    const result = await exited;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^cairn: INVALID_INPUT: Standard input is larger than 32 MB/);
    expect(writeError?.code).toBe('EPIPE');
    expect(await snapshotTree(join(project.root, '.cairn'))).toEqual(before);
  });
});
