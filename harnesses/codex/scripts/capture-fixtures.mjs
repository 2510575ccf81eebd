#!/usr/bin/env node
// Captures fixtures/session/*.json (and the rollout they point at) from the
// pinned Codex CLI: a recording hook appends every payload to a file while
// one session runs against @cairn/testkit's scripted model server, with
// HOME/CODEX_HOME in a temp dir. Run 1 calls memory_add over MCP; run 2
// resumes with a tiny auto-compaction limit so Codex compacts.
// Usage: node scripts/capture-fixtures.mjs   (after building @cairn/testkit and the CLI)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '@cairn/testkit';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const codex = join(pkg, 'node_modules/.bin/codex');
const cli = fileURLToPath(new URL('../../../packages/cli/dist/bin.cjs', import.meta.url));
const SUMMARY = 'CAIRN-SUMMARY: kestrel deploy work';
const EVENTS = {
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'userPromptSubmit',
  PostToolUse: 'toolUse',
  PreCompact: 'preCompaction',
  PostCompact: 'compactionComplete',
  SessionEnd: 'sessionEnd',
};

const temp = mkdtempSync(join(tmpdir(), 'codex-capture-'));
const home = join(temp, 'home');
const codexHome = join(home, '.codex');
const project = join(temp, 'proj');
const log = join(temp, 'hooks.jsonl');
mkdirSync(codexHome, { recursive: true });
mkdirSync(project);
const recorder = join(temp, 'record.mjs');
writeFileSync(
  recorder,
  `import { appendFileSync, readFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, JSON.stringify({ hookEvent: process.argv[2], payload: JSON.parse(readFileSync(0, 'utf8')) }) + '\\n');\n`,
);
const hooks = Object.fromEntries(
  Object.keys(EVENTS).map((event) => [
    event,
    [{ hooks: [{ type: 'command', command: `${process.execPath} ${recorder} ${event}` }] }],
  ]),
);
writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks }, null, 2));

const first = await startModelServer({
  text: 'Done.',
  toolCalls: [{ tool: /memory_add/, input: { text: 'Codex e2e: deploys go through kestrel.' } }],
  compactionSummary: SUMMARY,
});
const second = await startModelServer({ text: 'Resumed.', compactionSummary: SUMMARY });
writeFileSync(
  join(codexHome, 'config.toml'),
  `model = "test-model"\nmodel_provider = "x"\napproval_policy = "never"\nsandbox_mode = "read-only"\n\n[model_providers.x]\nname = "x"\nbase_url = "${first.url}/v1"\nenv_key = "X_KEY"\nwire_api = "responses"\n\n[mcp_servers.cairn]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(cli)}, "mcp", "--root", ${JSON.stringify(project)}]\ndefault_tools_approval_mode = "approve"\n`,
);
const env = { ...process.env, HOME: home, CODEX_HOME: codexHome, X_KEY: 'dummy' };
// Asynchronous on purpose: the model server answers from this process's event loop.
// `codex exec` reads extra input from stdin when it is not a TTY: give it none.
const runCodex = (args) =>
  new Promise((resolve, reject) => {
    const child = spawn(codex, args, { env, cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else
        reject(
          new Error(
            `codex ${args.join(' ')} failed (${code ?? signal}):\n${Buffer.concat(err).toString()}`,
          ),
        );
    });
  });
try {
  execFileSync(process.execPath, [cli, 'init', '--root', project], { env });
  const base = [
    'exec',
    '--skip-git-repo-check',
    '--json',
    '--dangerously-bypass-hook-trust',
    '-C',
    project,
  ];
  const out = await runCodex([...base, 'remember that deploys go through kestrel']);
  const session = out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .find((event) => event.type === 'thread.started').thread_id;
  await runCodex([
    ...base,
    '-c',
    `model_providers.x.base_url="${second.url}/v1"`,
    '-c',
    'model_auto_compact_token_limit=1',
    'resume',
    session,
    'continue',
  ]);
  const version = execFileSync(codex, ['--version']).toString().trim();
  const records = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const pick = (event, test = () => true) =>
    records.find((r) => r.hookEvent === event && test(r.payload));
  const sequence = [
    pick('SessionStart', (p) => p.source === 'startup'),
    pick('UserPromptSubmit'),
    pick('PostToolUse'),
    pick('PreCompact'),
    pick('PostCompact'),
    pick('SessionStart', (p) => p.source === 'compact'),
    pick('SessionEnd'),
  ];
  const rollout = sequence[4].payload.transcript_path;
  const scrub = (value) =>
    JSON.parse(
      JSON.stringify(value)
        .replaceAll(`${rollout.slice(0, rollout.lastIndexOf('/') + 1)}`, '<fixtures>/rollout/')
        .replaceAll(temp, '/tmp/codex-capture'),
    );
  const out_dir = join(pkg, 'fixtures');
  rmSync(join(out_dir, 'session'), { recursive: true, force: true });
  rmSync(join(out_dir, 'rollout'), { recursive: true, force: true });
  mkdirSync(join(out_dir, 'session'), { recursive: true });
  mkdirSync(join(out_dir, 'rollout'), { recursive: true });
  sequence.forEach((record, index) => {
    const fixture = {
      event: EVENTS[record.hookEvent],
      hookEvent: record.hookEvent,
      payload: scrub(record.payload),
      capturedWith: version,
    };
    if (record.hookEvent === 'PostCompact') fixture.expectSummary = SUMMARY;
    const name = `${String(index + 1).padStart(2, '0')}-${record.hookEvent.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase())}${index === 5 ? '-compact' : ''}.json`;
    writeFileSync(join(out_dir, 'session', name), `${JSON.stringify(fixture, null, 2)}\n`);
  });
  // Keep the session header and the first compaction; the history they replace is not needed.
  const lines = readFileSync(rollout, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const meta = lines[0];
  meta.payload.base_instructions = { text: '(trimmed)' };
  const compacted = lines.find((line) => line.type === 'compacted');
  compacted.payload.replacement_history = [];
  writeFileSync(
    join(out_dir, 'rollout', basename(rollout)),
    `${[meta, compacted].map((line) => JSON.stringify(scrub(line))).join('\n')}\n`,
  );
  console.log(`captured ${sequence.length} fixtures with ${version}`);
} finally {
  await first.close();
  await second.close();
  rmSync(temp, { recursive: true, force: true });
}
