import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFdBounded } from './io';
import { cliRunner } from './test-cli';

let project: TempProject;
const cli = cliRunner(() => project.root);

beforeEach(async () => {
  project = await makeTempProject();
  expect(cli.run(['init']).code).toBe(0);
  expect(cli.run(['add', 'Deploys go through the kestrel pipeline on Fridays.']).code).toBe(0);
});
afterEach(() => project.cleanup());

const promptPayload = (sessionId: string, prompt: string) =>
  JSON.stringify({
    session_id: sessionId,
    transcript_path: join(project.root, 'transcript.jsonl'),
    cwd: project.root,
    hook_event_name: 'UserPromptSubmit',
    prompt,
  });

describe('cairn hook and cairn lifecycle (their own bundle, hook-main.cjs)', () => {
  it('answers a Claude Code and a Codex prompt, and the next process sees what it recorded', async () => {
    for (const harness of ['claude-code', 'codex']) {
      const run = cli.run(
        ['hook', harness, 'UserPromptSubmit'],
        promptPayload(`${harness}-1`, 'how do deploys go out?'),
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const reply = JSON.parse(run.stdout);
      expect(reply.hookSpecificOutput).toMatchObject({ hookEventName: 'UserPromptSubmit' });
      expect(reply.hookSpecificOutput.additionalContext).toContain('kestrel pipeline');
    }
    // The stores were left to the OS (no checkpoint on close): what the hook
    // committed is in the WAL, and another process reads it.
    expect(existsSync(join(project.root, '.cairn/state/lineage.db-wal'))).toBe(true);
    const cairn = await openCairn(project.root);
    try {
      const recalled = await cairn.lifecycle.userPromptSubmit({
        agentId: 'claude-code',
        sessionKey: 'claude-code-2',
        prompt: 'how do deploys go out?',
      });
      expect(recalled.failed).toBeUndefined();
    } finally {
      cairn.closeWorking();
    }
    const lifecycle = cli.run(
      ['lifecycle', 'user-prompt-submit'],
      JSON.stringify({ agentId: 'script', sessionKey: 's-1', prompt: 'kestrel pipeline' }),
    );
    expect(lifecycle.code).toBe(0);
    expect(JSON.parse(lifecycle.stdout)).toMatchObject({ ok: true });
    expect(JSON.parse(lifecycle.stdout).inject).toContain('kestrel pipeline');
  });

  it('leaves the write-ahead logs to the OS until the session ends, then folds them in', () => {
    const wal = (name: string) => existsSync(join(project.root, '.cairn/state', `${name}.db-wal`));
    const prompt = cli.run(['hook', 'codex', 'UserPromptSubmit'], promptPayload('s-1', 'deploys?'));
    expect(prompt.code).toBe(0);
    expect([wal('lineage'), wal('heads')]).toEqual([true, true]);
    const end = cli.run(
      ['hook', 'codex', 'SessionEnd'],
      JSON.stringify({ session_id: 's-1', cwd: project.root, hook_event_name: 'SessionEnd' }),
    );
    expect(end.code).toBe(0);
    expect(end.stderr).toBe('');
    expect([wal('lineage'), wal('heads')]).toEqual([false, false]);
  });

  it('sends hooks of the in-process harnesses and unknown ones to the whole CLI', () => {
    const unknown = cli.run(['hook', 'nope', 'UserPromptSubmit', '--json'], '{}');
    expect(unknown.code).toBe(0);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse(unknown.stdout).error.message).toContain('Unknown harness "nope"');
    const opencode = cli.run(['hook', 'opencode', 'session.idle', '--json'], '{}');
    expect(opencode.code).toBe(0);
    expect(opencode.stdout).not.toContain('hook bundle');
  });

  it('holds the lifecycle and two deliveries alone: no classic zod, install code or other harnesses', () => {
    const map = fileURLToPath(new URL('../dist/hook-main.cjs.map', import.meta.url));
    const sources = (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
    for (const wanted of [
      'engine/src/working/lifecycle.ts',
      'harnesses/claude-code/src/deliver.ts',
      'harnesses/codex/src/deliver.ts',
    ]) {
      expect(sources.some((source) => source.endsWith(wanted))).toBe(true);
    }
    const unwanted = sources.filter((source) =>
      /zod\/v4\/classic|engine\/src\/harness\/|-install\.ts|harnesses\/(opencode|openclaw)\/|packages\/mcp\/|node_modules\/.*smol-toml/.test(
        source,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it('finds a daily note edited in place by hand on the next prompt (its folder unchanged)', () => {
    const first = cli.run(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      promptPayload('edit-1', 'how do deploys go out?'),
    );
    expect(JSON.parse(first.stdout).hookSpecificOutput.additionalContext).toContain('kestrel');
    // An editor that writes in place (same inode, same size): only the file's mtime moves.
    const memory = join(project.root, '.cairn/memory');
    const daily = readdirSync(memory).find((name) => /^\d{4}-\d{2}-\d{2}\.md$/.test(name));
    const path = join(memory, daily!);
    const folder = statSync(memory);
    writeFileSync(path, readFileSync(path, 'utf8').replace('kestrel', 'ospreys'));
    utimesSync(memory, folder.atime, folder.mtime);
    const next = cli.run(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      promptPayload('edit-2', 'ospreys pipeline'),
    );
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).hookSpecificOutput.additionalContext).toContain(
      'ospreys pipeline',
    );
  });

  it('loads neither node:fs/promises nor readline to answer a prompt from an indexed workspace', () => {
    // A preload reports, as the process exits, the built-in modules it loaded.
    const preload = join(project.root, 'report-modules.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList)));",
    );
    // The first prompt indexes the new unit (reading a file, asynchronously); the next has nothing to read.
    const first = cli.run(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      promptPayload('modules-0', 'how do deploys go out?'),
    );
    expect(first.code).toBe(0);
    const run = cli.run(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      promptPayload('modules-1', 'how do deploys go out?'),
      { NODE_OPTIONS: `--require ${preload}` },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('kestrel pipeline');
    const loaded = JSON.parse(run.stderr) as string[];
    expect(loaded).toContain('NativeModule fs');
    expect(loaded.filter((name) => /fs\/promises|readline/.test(name))).toEqual([]);
  });

  it('carries better-sqlite3’s JavaScript (in the code cache), not its addon or `bindings`', () => {
    for (const bundle of ['hook-main', 'search-main']) {
      const map = fileURLToPath(new URL(`../dist/${bundle}.cjs.map`, import.meta.url));
      const sources = (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
      expect(sources.some((source) => source.endsWith('better-sqlite3/lib/database.js'))).toBe(
        true,
      );
      expect(
        sources.filter((source) => /node_modules\/(bindings|file-uri-to-path)\//.test(source)),
      ).toEqual([]);
    }
  });
});

describe('reading stdin from fd 0 (readFdBounded)', () => {
  /** A named pipe: `reader` in non-blocking mode (EAGAIN while empty), `writer` to feed it. */
  let fifos = 0;
  function fifo(): { reader: number; writer: number } {
    const path = join(project.root, `stdin-${++fifos}.fifo`);
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    return { reader, writer: openSync(path, constants.O_WRONLY) };
  }

  it('reads a file to its end, multi-byte text whole, and stops past maxBytes', async () => {
    const path = join(project.root, 'payload.json');
    const text = `{"prompt":"${'ünïcödé 記憶 '.repeat(20_000)}"}`;
    writeFileSync(path, text);
    const fd = openSync(path, 'r');
    try {
      expect(await readFdBounded(fd)).toBe(text);
    } finally {
      closeSync(fd);
    }
    const again = openSync(path, 'r');
    try {
      const error = await readFdBounded(again, { maxBytes: 100 * 1024 }).catch((e) => e);
      expect([error.code, error.message]).toEqual([
        'INVALID_INPUT',
        'Standard input is larger than 0.1 MB — nothing was written; stopped reading at the limit',
      ]);
    } finally {
      closeSync(again);
    }
  });

  it('waits on a non-blocking pipe that has nothing yet, and gives up after timeoutMs', async () => {
    const { reader, writer } = fifo();
    try {
      const reading = readFdBounded(reader, { timeoutMs: 60_000 });
      writeSync(writer, '{"a":');
      await new Promise((resolve) => setImmediate(resolve));
      writeSync(writer, '1}');
      closeSync(writer);
      expect(await reading).toBe('{"a":1}');
    } finally {
      closeSync(reader);
    }
    const stalled = fifo();
    try {
      const error = await readFdBounded(stalled.reader, { timeoutMs: 50 }).catch((e) => e);
      expect([error.code, error.message]).toEqual([
        'INVALID_INPUT',
        'Standard input did not end within 50 ms — the writer must close stdin after the payload; nothing was written',
      ]);
    } finally {
      closeSync(stalled.writer);
      closeSync(stalled.reader);
    }
  });
});
