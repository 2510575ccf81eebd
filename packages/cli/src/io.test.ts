import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CairnError } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fdStdout, oneLine, printError } from './io';

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));

describe('stdout straight to fd 1', () => {
  let temp: TempProject;
  beforeEach(async () => {
    temp = await makeTempProject('cairn-cli-io-');
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it('writes every piece, in order, multi-byte text included', () => {
    const path = join(temp.root, 'out.txt');
    const fd = openSync(path, 'w');
    const write = fdStdout(fd);
    const pieces = ['first line\n', 'ünïcödé — 記憶\n', 'x'.repeat(70_000), '\nlast\n'];
    for (const piece of pieces) write(piece);
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
  });

  it('hands the rest to the stream once a non-blocking pipe is full, keeping the order', () => {
    const streamed: string[] = [];
    const onFd: string[] = [];
    let calls = 0;
    const write = fdStdout(1, {
      writeSync: ((_fd: number, bytes: Buffer, offset: number) => {
        calls++;
        if (calls === 2) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
        const taken = Math.min(4, bytes.length - offset);
        onFd.push(bytes.subarray(offset, offset + taken).toString());
        return taken;
      }) as never,
      stream: () => ({ write: (chunk: string | Buffer) => streamed.push(String(chunk)) }) as never,
    });
    write('abcdefgh');
    write('ij');
    expect(onFd.join('')).toBe('abcd');
    expect(streamed).toEqual(['efgh', 'ij']);
  });

  it('delivers a megabyte of --json output whole to a reader that starts late', async () => {
    const root = join(temp.root, 'project');
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(200)}`);
    // `--root` must exist: init creates `.cairn/` in it, never the folder itself.
    mkdirSync(root);
    const init = spawn(process.execPath, [bin, 'init', '--root', root], { stdio: 'ignore' });
    await new Promise((resolve) => init.once('close', resolve));
    writeFileSync(join(root, '.cairn', 'memory', '2026-01-31.md'), `${lines.join('\n')}\n`);
    const child = spawn(process.execPath, [
      bin,
      'get',
      'RAW:2026-01-31.md#L1-L5000',
      '--json',
      '--root',
      root,
    ]);
    // Fill the pipe before reading, so the writer meets a full pipe.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const printed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: string };
    expect(JSON.stringify(printed)).toContain(lines.at(-1));
    expect(JSON.stringify(printed)).toContain(lines[0]);
  });
});

describe('error lines', () => {
  const capture = () => {
    const out = { stdout: '', stderr: '' };
    const io = {
      stdout: (t: string) => {
        out.stdout += t;
      },
      stderr: (t: string) => {
        out.stderr += t;
      },
      readStdin: async () => undefined,
      cwd: '/',
      env: {},
    };
    return { io, out };
  };

  it('prints one line with an upper-case code and a hint, control bytes shown escaped', () => {
    const { io, out } = capture();
    printError(io, new CairnError('NOT_FOUND', 'No file "a\nb\u001b[2Jc\rd"'), false);
    expect(out.stderr).toBe(
      'cairn: NOT_FOUND: No file "a b\\x1b[2Jc d" — check the path or id, or run `cairn init` to create the workspace\n',
    );
    const { io: io2, out: out2 } = capture();
    printError(io2, new TypeError('x is undefined'), false);
    expect(out2.stderr).toMatch(/^cairn: INTERNAL: x is undefined — this is a bug in Cairn.+\n$/);
  });

  it('gives the JSON error a hint too', () => {
    const { io, out } = capture();
    printError(io, new CairnError('INVALID_PATH', 'bad'), true);
    expect(JSON.parse(out.stdout)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PATH', message: 'bad', hint: expect.any(String), details: {} },
    });
    expect(oneLine('a\u0000b')).toBe('a\\x00b');
  });
});
