#!/usr/bin/env node
// Captures fixtures/answers/agent-end.json from the pinned OpenClaw: the
// agent_end hook of one real run (the scripted model calls Cairn's
// memory_add, then answers in text), with the run's `messages`, which the
// session fixtures leave out. Long strings Cairn never reads are cut and
// temp paths replaced. openclaw-answer.test.ts reads the final answer back.
// Usage: node scripts/capture-agent-end.mjs   (after `pnpm exec tsup` and building @cairn/testkit)
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer, trimCaptured } from '@cairn/testkit';
import { driveSession, packageDir, writeOpenclawConfig } from './openclaw-session.mjs';

const ANSWER = 'Noted: the deploy target is kestrel-prod.';

const capturePlugin = (out) => `import { appendFileSync } from 'node:fs';
export default { id: 'cairn-capture', register(api) {
  api.on('agent_end', async (event, ctx) => {
    appendFileSync(${JSON.stringify(out)}, JSON.stringify({ event, ctx }) + '\\n');
  });
}};
`;

const temp = await mkdtemp(join(tmpdir(), 'cairn-openclaw-answer-'));
const server = await startModelServer({
  text: ANSWER,
  toolCalls: [{ tool: /memory_add/, input: { text: 'The deploy target is kestrel-prod.' } }],
});
const cut = (value) =>
  trimCaptured(value, {
    temp,
    placeholder: '/tmp/openclaw-capture',
    drop: ['trace', 'hookInvocation'],
  });
try {
  const home = join(temp, 'home');
  const project = join(temp, 'project');
  const plugin = join(temp, 'capture-plugin');
  const out = join(temp, 'agent-end.jsonl');
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
  await driveSession({
    home,
    cwd: project,
    env: process.env,
    sessionKey: 'agent:main:cairn-answer',
    message: 'Remember that the deploy target is kestrel-prod.',
  });
  const { version } = JSON.parse(
    await readFile(join(packageDir, 'node_modules/openclaw/package.json'), 'utf8'),
  );
  const [record] = (await readFile(out, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const dir = join(packageDir, 'fixtures', 'answers');
  await mkdir(dir, { recursive: true });
  const fixture = {
    hookEvent: 'agent_end',
    payload: cut(record),
    capturedWith: `openclaw ${version}`,
  };
  await writeFile(join(dir, 'agent-end.json'), `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`agent_end with ${record.event.messages?.length ?? 0} messages`);
} finally {
  await server.close();
  await rm(temp, { recursive: true, force: true });
}
