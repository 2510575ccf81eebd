#!/usr/bin/env node
/**
 * What Cairn injects on this repository: copies the repository's own
 * Markdown (README, AGENTS.md, docs/, every tracked *.md) into a scratch
 * project, files a few units, plays a few sessions of history through
 * `cairn lifecycle`, then prints what `cairn hook claude-code
 * SessionStart` and `UserPromptSubmit` inject for a new session.
 *
 *   node bench/scripts/repo-injection-note.mjs [--cairn <path to bin.cjs>] [--prompt "<text>"]
 *
 * `--cairn` picks the build to ask (default: this checkout's
 * packages/cli/dist/bin.cjs), so the same script shows a build before and
 * after a change. Nothing outside the scratch folder is written; it is
 * removed at the end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    cairn: { type: 'string', default: join(repo, 'packages/cli/dist/bin.cjs') },
    prompt: {
      type: 'string',
      default: 'how do I see what the prompt hook injected, and why an item was left out?',
    },
  },
});

const scratch = mkdtempSync(join(tmpdir(), 'cairn-repo-note-'));
const root = join(scratch, 'cairn');
const env = {
  PATH: process.env.PATH,
  HOME: join(scratch, 'home'),
  XDG_CACHE_HOME: join(scratch, 'cache'),
  CAIRN_HOOK_SERVER: 'off',
  CAIRN_TIMEZONE: 'UTC',
};

function cairn(args, input) {
  const run = spawnSync(process.execPath, [values.cairn, ...args], {
    cwd: root,
    env,
    input,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`cairn ${args.join(' ')}: ${run.stderr || run.stdout}`);
  return run.stdout;
}

/** The units a team would have filed about this repository. */
const UNITS = [
  'Run `pnpm build` at the root before the cli, mcp and harness tests: they run the built cli.',
  'Never run the whole `pnpm test` on the shared 2-core machines; run the package tests you touched.',
  'Every change to a published package needs a changeset in .changeset/ with a user-facing paragraph.',
  'Context packs are costed with the estimate on the hook path and with the tokenizer in `cairn pack`.',
  '`cairn pack --last` prints the receipt of the last injection: items, what was left out and why.',
];

/** A few sessions of history on the main thread. */
const SESSIONS = [
  [
    'Decision: the hook server answers prompt hooks so no event loads Cairn from scratch.',
    'Next: measure the prompt hook against bare node in the lived-in bench.',
  ],
  [
    'The lived-in bench shows the prompt hook at 1.3x bare node. We decided to keep the estimate counter on the hook path.',
    'Next: show in the receipt why an item was left out.',
  ],
  [
    'We decided that receipts keep the pack without its rendered text. Next: add `cairn pack --last`.',
  ],
];

try {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: repo, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.startsWith('.changeset/') && !file.includes('CHANGELOG'));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(repo, file), join(root, file));
  }
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  cairn(['init']);
  for (const text of UNITS) cairn(['add', text]);
  SESSIONS.forEach((prompts, index) => {
    const ids = { agentId: 'claude-code', sessionKey: `history-${index}`, cwd: root };
    cairn(['lifecycle', 'session-start'], JSON.stringify(ids));
    for (const prompt of prompts) {
      cairn(['lifecycle', 'user-prompt-submit'], JSON.stringify({ ...ids, prompt }));
    }
    cairn(['lifecycle', 'session-end'], JSON.stringify(ids));
  });
  const base = { session_id: 'note-session', transcript_path: join(scratch, 't.jsonl'), cwd: root };
  const context = (stdout) =>
    stdout.trim() ? (JSON.parse(stdout).hookSpecificOutput?.additionalContext ?? '') : '';
  const start = context(
    cairn(
      ['hook', 'claude-code', 'SessionStart'],
      JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
    ),
  );
  const prompt = context(
    cairn(
      ['hook', 'claude-code', 'UserPromptSubmit'],
      JSON.stringify({ ...base, hook_event_name: 'UserPromptSubmit', prompt: values.prompt }),
    ),
  );
  process.stdout.write(
    `=== session start (${files.length} documents copied)\n${start || '(nothing)'}\n`,
  );
  process.stdout.write(`=== prompt: ${values.prompt}\n${prompt || '(nothing)'}\n`);
} finally {
  if (process.env.CAIRN_NOTE_KEEP) process.stderr.write(`kept ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
}
