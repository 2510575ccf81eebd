#!/usr/bin/env node
// Captures fixtures/session/*.json from the pinned OpenClaw: a tiny plugin
// appends every hook's {event, ctx} to a file (after_compaction also gets the
// summary the Cairn plugin reads from the session store), while one session
// runs against a scripted model server that calls Cairn's memory_add.
//
// Usage: node scripts/capture-fixtures.mjs [--model-url http://127.0.0.1:PORT]
//   (default: @cairn/testkit's startModelServer). Needs `pnpm exec tsup` first.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { driveSession, packageDir, writeOpenclawConfig } from './openclaw-session.mjs';

const HOOKS = [
  'session_start',
  'before_prompt_build',
  'after_tool_call',
  'before_compaction',
  'after_compaction',
  'session_end',
  'agent_end',
];
const EVENT = {
  session_start: 'sessionStart',
  before_prompt_build: 'userPromptSubmit',
  after_tool_call: 'toolUse',
  before_compaction: 'preCompaction',
  after_compaction: 'compactionComplete',
  session_end: 'sessionEnd',
  agent_end: 'sessionEnd',
};
const SUMMARY = 'Compaction summary from the scripted model: the deploy target is kestrel-prod.';

function capturePlugin(out) {
  const index = pathToFileURL(join(packageDir, 'dist', 'index.js')).href;
  return `import { appendFileSync } from 'node:fs';
import { agentDatabasePath, readCompactionSummary } from ${JSON.stringify(index)};
export default { id: 'cairn-capture', register(api) {
  for (const hook of ${JSON.stringify(HOOKS)}) api.on(hook, async (event, ctx) => {
    const record = { hook, event, ctx };
    if (hook === 'after_compaction') {
      const db = agentDatabasePath(event.sessionFile, ctx.agentId ?? 'main', process.env);
      record.compactionSummary = await readCompactionSummary(db, [ctx.sessionId]);
    }
    appendFileSync(${JSON.stringify(out)}, JSON.stringify(record) + '\\n');
  });
}};
`;
}

async function modelServer() {
  const at = process.argv.indexOf('--model-url');
  if (at > 0) return { url: process.argv[at + 1], close: async () => {} };
  const { startModelServer } = await import('@cairn/testkit');
  return startModelServer({
    text: 'Noted.',
    toolCalls: [{ tool: /memory_add/, input: { text: 'The deploy target is kestrel-prod.' } }],
    compactionSummary: SUMMARY,
  });
}

/** Drops what a fixture does not need (message history, trace ids) and the temp paths. */
function scrub(record, temp) {
  const text = JSON.stringify(record, (key, value) =>
    key === 'messages' || key === 'trace' || key === 'hookInvocation' ? undefined : value,
  );
  return JSON.parse(text.replaceAll(temp, '/tmp/openclaw-capture'));
}

const temp = await mkdtemp(join(tmpdir(), 'cairn-openclaw-capture-'));
const server = await modelServer();
try {
  const home = join(temp, 'home');
  const project = join(temp, 'project');
  const plugin = join(temp, 'capture-plugin');
  const out = join(temp, 'hooks.jsonl');
  await mkdir(project, { recursive: true });
  await mkdir(plugin, { recursive: true });
  const cli = join(packageDir, '..', '..', 'packages', 'cli', 'dist', 'bin.cjs');
  execFileSync(process.execPath, [cli, 'init', '--root', project]);
  await writeFile(
    join(plugin, 'package.json'),
    JSON.stringify({
      name: 'cairn-capture',
      version: '0.0.0',
      type: 'module',
      openclaw: { extensions: ['./index.js'] },
    }),
  );
  await writeFile(
    join(plugin, 'openclaw.plugin.json'),
    JSON.stringify({
      id: 'cairn-capture',
      activation: { onStartup: true },
      configSchema: { type: 'object', additionalProperties: false, properties: {} },
    }),
  );
  await writeFile(join(plugin, 'index.js'), capturePlugin(out));
  await writeOpenclawConfig(home, {
    modelUrl: server.url,
    workspace: project,
    extra: {
      plugins: {
        load: { paths: [plugin] },
        entries: { 'cairn-capture': { enabled: true, hooks: { allowConversationAccess: true } } },
      },
      mcp: {
        servers: { cairn: { command: process.execPath, args: [cli, 'mcp', '--root', project] } },
      },
    },
  });
  const session = await driveSession({
    home,
    cwd: project,
    env: process.env,
    sessionKey: 'agent:main:cairn-capture',
    message: 'Remember that the deploy target is kestrel-prod.',
  });
  const { version } = JSON.parse(
    await readFile(join(packageDir, 'node_modules/openclaw/package.json'), 'utf8'),
  );
  const records = (await readFile(out, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => scrub(JSON.parse(line), temp));
  const dir = join(packageDir, 'fixtures', 'session');
  for (const file of await readdir(dir)) if (file.endsWith('.json')) await rm(join(dir, file));
  for (const [index, { hook, ...payload }] of records.entries()) {
    const fixture = {
      event: EVENT[hook],
      hookEvent: hook,
      payload,
      capturedWith: `openclaw ${version}`,
    };
    if (hook === 'after_compaction' && payload.compactionSummary)
      fixture.expectSummary = 'kestrel-prod';
    const name = `${String(index + 1).padStart(2, '0')}-${hook.replaceAll('_', '-')}.json`;
    await writeFile(join(dir, name), `${JSON.stringify(fixture, null, 2)}\n`);
    console.log(name);
  }
  console.error(`compaction: ${JSON.stringify(session.compact).slice(0, 200)}`);
} finally {
  await server.close();
  await rm(temp, { recursive: true, force: true });
}
