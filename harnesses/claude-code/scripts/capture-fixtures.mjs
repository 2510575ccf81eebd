#!/usr/bin/env node
/**
 * Records the hook payloads of one real Claude Code session as fixtures
 * (fixtures/session/*.json) for describeHarness. A logging hook is
 * registered for every event Cairn maps, the pinned CLI runs one prompt
 * (the scripted model calls Cairn's memory_add through MCP) and then
 * `/compact` on the same session, against a local model server, with HOME
 * in a temp dir. Temp paths are scrubbed from the payloads.
 *
 *   node scripts/capture-fixtures.mjs                 # starts @cairn/testkit's model server
 *   node scripts/capture-fixtures.mjs --base-url URL  # uses a server already running
 *   (internal) node scripts/capture-fixtures.mjs record <file> <HookEvent> < payload
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, '..');
const cli = join(pkgRoot, '../../packages/cli/dist/bin.cjs');
const claude = join(pkgRoot, 'node_modules/.bin/claude');
const EVENTS = {
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'userPromptSubmit',
  PostToolUse: 'toolUse',
  PreCompact: 'preCompaction',
  PostCompact: 'compactionComplete',
  SessionEnd: 'sessionEnd',
};
const COMPACTION_SUMMARY =
  'The user asked Claude to remember where the deploy key lives (vault path ops/deploy).';

if (process.argv[2] === 'record') {
  const [, , , file, event] = process.argv;
  const payload = JSON.parse(readFileSync(0, 'utf8'));
  appendFileSync(file, `${JSON.stringify({ hookEvent: event, payload })}\n`);
  process.exit(0);
}

async function modelServer() {
  const flag = process.argv.indexOf('--base-url');
  if (flag > 0) return { url: process.argv[flag + 1], close: async () => {} };
  const { startModelServer } = await import('@cairn/testkit');
  return startModelServer({
    text: 'Noted.',
    toolCalls: [
      { tool: /memory_add$/, input: { text: 'The deploy key lives in vault path ops/deploy.' } },
    ],
    compactionSummary: COMPACTION_SUMMARY,
  });
}

function setUp(base) {
  const home = join(base, 'home');
  const root = join(base, 'project');
  const log = join(base, 'payloads.jsonl');
  mkdirSync(join(root, '.claude'), { recursive: true });
  mkdirSync(home, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  execFileSync(process.execPath, [cli, 'init', '--root', root]);
  const hooks = Object.fromEntries(
    Object.keys(EVENTS).map((event) => [
      event,
      [
        {
          hooks: [
            {
              type: 'command',
              command: `"${process.execPath}" "${join(here, 'capture-fixtures.mjs')}" record "${log}" ${event}`,
            },
          ],
        },
      ],
    ]),
  );
  const settings = { hooks, permissions: { allow: ['mcp__cairn'] } };
  writeFileSync(join(root, '.claude/settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(
    join(root, '.claude/settings.local.json'),
    JSON.stringify({ enabledMcpjsonServers: ['cairn'] }),
  );
  const mcp = {
    mcpServers: { cairn: { command: process.execPath, args: [cli, 'mcp', '--root', root] } },
  };
  writeFileSync(join(root, '.mcp.json'), JSON.stringify(mcp, null, 2));
  // What accepting Claude Code's workspace trust prompt records.
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({ projects: { [root]: { hasTrustDialogAccepted: true } } }),
  );
  return { home, root, log };
}

/** Async, so an in-process model server keeps answering while Claude Code runs. */
async function run(args, { home, root }, url) {
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    ENABLE_TOOL_SEARCH: 'false',
  };
  const { stdout: out } = await promisify(execFile)(claude, [...args, '--output-format', 'json'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  return JSON.parse(out);
}

/** Temp paths, also as Claude Code encodes them in transcript folder names (`/` as `-`). */
function scrub(value, base) {
  const text = JSON.stringify(value)
    .replaceAll(base, '/tmp/cairn-capture')
    .replaceAll(base.replaceAll('/', '-'), '-tmp-cairn-capture');
  return JSON.parse(text);
}

const server = await modelServer();
const base = mkdtempSync(join(tmpdir(), 'cairn-cc-capture-'));
try {
  const setup = setUp(base);
  const version = execFileSync(claude, ['--version'], { encoding: 'utf8' }).trim().split(' ')[0];
  const first = await run(['-p', 'Remember where the deploy key lives.'], setup, server.url);
  await run(['-p', '/compact', '--resume', first.session_id], setup, server.url);
  const records = readFileSync(setup.log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const out = join(pkgRoot, 'fixtures/session');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  records.forEach(({ hookEvent, payload }, index) => {
    const suffix = payload.source ? `-${payload.source}` : '';
    const fixture = {
      event: EVENTS[hookEvent],
      hookEvent,
      payload: scrub(payload, base),
      capturedWith: `claude ${version}`,
      ...(hookEvent === 'PostCompact' ? { expectSummary: payload.compact_summary } : {}),
    };
    const name = `${String(index + 1).padStart(2, '0')}-${hookEvent}${suffix}.json`;
    writeFileSync(join(out, name), `${JSON.stringify(fixture, null, 2)}\n`);
  });
  console.log(`wrote ${records.length} fixtures to ${out}`);
} finally {
  await server.close();
  rmSync(base, { recursive: true, force: true });
}
