#!/usr/bin/env node
// Captures fixtures/rollout/answered.jsonl from the pinned Codex CLI: one
// `codex exec` against @cairn/testkit's scripted model server that runs a
// command, then answers in text. The rollout keeps its real line types
// (session meta, response items, events); long texts Cairn never reads
// (instructions, environment context, world state) are cut, temp paths
// replaced. deliver.test.ts reads the final answer back from it.
// Usage: node scripts/capture-answer-rollout.mjs   (after building @cairn/testkit)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder, runToExit, startModelServer, trimCaptured } from '@cairn/testkit';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const codex = join(pkg, 'node_modules/.bin/codex');
const ANSWER = 'The parser re-reads the file for every line; read it once into a buffer.';
const KEEP_EVENTS = new Set([
  'task_started',
  'item_completed',
  'task_complete',
  'user_message',
  'agent_message',
]);

const temp = mkdtempSync(join(tmpdir(), 'codex-answer-'));
const codexHome = join(temp, 'home', '.codex');
const project = join(temp, 'proj');
mkdirSync(codexHome, { recursive: true });
mkdirSync(project);
const server = await startModelServer({
  text: ANSWER,
  toolCalls: [{ tool: /^exec_command$/, input: { cmd: 'ls' }, afterResults: 0 }],
});
writeFileSync(
  join(codexHome, 'config.toml'),
  `model = "test-model"\nmodel_provider = "x"\napproval_policy = "never"\nsandbox_mode = "read-only"\n\n[model_providers.x]\nname = "x"\nbase_url = "${server.url}/v1"\nenv_key = "X_KEY"\nwire_api = "responses"\n`,
);
const env = { ...process.env, HOME: join(temp, 'home'), CODEX_HOME: codexHome, X_KEY: 'dummy' };
try {
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--json',
    '-C',
    project,
    'Why is the parser slow?',
  ];
  await runToExit(codex, args, { env, cwd: project });
  const [rollout] = filesUnder(join(codexHome, 'sessions'));
  const lines = readFileSync(rollout, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter(
      (line) =>
        line.type === 'session_meta' ||
        line.type === 'response_item' ||
        (line.type === 'event_msg' && KEEP_EVENTS.has(line.payload?.type)),
    )
    // Long strings are instructions and context Cairn never reads: cut them.
    .map((line) => trimCaptured(line, { temp, placeholder: '/tmp/codex-capture' }));
  const out = join(pkg, 'fixtures', 'rollout', 'answered.jsonl');
  writeFileSync(out, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  console.log(`wrote ${lines.length} lines to ${out}`);
} finally {
  await server.close();
  rmSync(temp, { recursive: true, force: true });
}
