#!/usr/bin/env node
// Captures fixtures/transcript/answered.jsonl from the pinned Claude Code:
// one `claude -p` against @cairn/testkit's scripted model server that runs
// a Bash command, then answers in text. The transcript keeps its real
// entries (user prompt, assistant tool use, tool result, assistant text);
// long strings Cairn never reads are cut and temp paths replaced.
// deliver.test.ts reads the final answer back from it.
// Usage: node scripts/capture-answer-transcript.mjs   (after building @cairn/testkit)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder, runToExit, startModelServer, trimCaptured } from '@cairn/testkit';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const claude = join(pkg, 'node_modules/.bin/claude');
const ANSWER = 'The parser re-reads the file for every line; read it once into a buffer.';

const temp = mkdtempSync(join(tmpdir(), 'claude-answer-'));
const home = join(temp, 'home');
const project = join(temp, 'project');
mkdirSync(home, { recursive: true });
mkdirSync(project);
const server = await startModelServer({
  text: ANSWER,
  toolCalls: [
    { tool: /^Bash$/, input: { command: 'ls', description: 'List files' }, afterResults: 0 },
  ],
});
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  ANTHROPIC_BASE_URL: server.url,
  ANTHROPIC_API_KEY: 'dummy',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  ENABLE_TOOL_SEARCH: 'false',
};
try {
  const args = [
    '-p',
    'Why is the parser slow?',
    '--output-format',
    'json',
    '--allowedTools',
    'Bash',
  ];
  await runToExit(claude, args, { env, cwd: project });
  const [transcript] = filesUnder(join(home, '.claude', 'projects')).filter((f) =>
    f.endsWith('.jsonl'),
  );
  const lines = readFileSync(transcript, 'utf8')
    .trim()
    .split('\n')
    .map((line) => trimCaptured(JSON.parse(line), { temp, placeholder: '/tmp/claude-capture' }));
  mkdirSync(join(pkg, 'fixtures', 'transcript'), { recursive: true });
  const out = join(pkg, 'fixtures', 'transcript', 'answered.jsonl');
  writeFileSync(out, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  console.log(`wrote ${lines.length} entries to ${out}`);
} finally {
  await server.close();
  rmSync(temp, { recursive: true, force: true });
}
