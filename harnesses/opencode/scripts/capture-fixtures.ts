/**
 * Records the payloads of one real OpenCode session as fixtures/session/*.json.
 *
 *   pnpm exec tsx scripts/capture-fixtures.ts [--model-url http://127.0.0.1:PORT]
 *
 * Drives the pinned opencode-ai CLI (throwaway HOME, `opencode serve` +
 * `opencode run --attach`, compaction through POST /session/:id/summarize,
 * then DELETE) against the testkit's scripted model server (or the one at
 * --model-url), with scripts/capture-plugin.mjs recording every hook input.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openCairn } from '@cairn/engine';
import { formatJson } from '@cairn/harness-kit';
import {
  cairnBinary,
  compact,
  createSandbox,
  deleteSession,
  OPENCODE_VERSION,
  opencodeBinary,
  PACKAGE_DIR,
  providerConfig,
  runPrompt,
  startServer,
} from '../src/testing/opencode-sandbox';

const SUMMARY = 'Compaction summary: the deploy target is fly.io; next, write the deploy script.';
const HOOK_EVENT_TO_EVENT: Record<string, string> = {
  'session.created': 'sessionStart',
  'chat.message': 'userPromptSubmit',
  'tool.execute.after': 'toolUse',
  'experimental.session.compacting': 'preCompaction',
  'session.compacted': 'compactionComplete',
  'session.idle': 'sessionEnd',
  'session.deleted': 'sessionEnd',
};

async function modelServer(url: string | undefined) {
  if (url) return { url, close: async () => undefined };
  const { startModelServer } = await import('@cairn/testkit');
  return startModelServer({
    text: 'Noted.',
    toolCalls: [
      { tool: /memory_add/, input: { text: 'The deploy target is fly.io', category: 'decision' } },
    ],
    compactionSummary: SUMMARY,
  });
}

async function main() {
  if (!opencodeBinary()) throw new Error('the pinned opencode-ai binary is not installed');
  const flag = process.argv.indexOf('--model-url');
  const model = await modelServer(flag > 0 ? process.argv[flag + 1] : undefined);
  const sandbox = await createSandbox();
  const captureFile = join(sandbox.home, 'capture.jsonl');
  sandbox.env.CAIRN_CAPTURE_FILE = captureFile;
  try {
    await (await openCairn(sandbox.project, { env: {} })).init();
    const plugin = pathToFileURL(join(PACKAGE_DIR, 'scripts/capture-plugin.mjs')).href;
    const mcp = { cairn: { type: 'local', command: [process.execPath, cairnBinary(), 'mcp'] } };
    await writeFile(
      join(sandbox.project, 'opencode.json'),
      formatJson({ ...providerConfig(model.url), plugin: [plugin], mcp }),
    );
    const server = await startServer(sandbox);
    try {
      const session = await runPrompt(
        sandbox,
        server,
        'Please remember: the deploy target is fly.io',
      );
      await compact(server, session);
      await deleteSession(server, session);
    } finally {
      await server.stop();
    }
    const lines = (await readFile(captureFile, 'utf8')).trim().split('\n');
    const records = lines.map(
      (line) => JSON.parse(line) as { hookEvent: string; payload: unknown },
    );
    await writeFixtures(records, sandbox.project);
  } finally {
    await model.close();
    await sandbox.cleanup();
  }
}

/** One fixture per hook (the last idle: the one after compaction), temp paths scrubbed. */
async function writeFixtures(records: { hookEvent: string; payload: unknown }[], project: string) {
  const dir = join(PACKAGE_DIR, 'fixtures/session');
  await rm(dir, { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  const order = Object.keys(HOOK_EVENT_TO_EVENT);
  const picked = order
    .map((hookEvent) => records.filter((r) => r.hookEvent === hookEvent).at(-1))
    .filter((r) => r !== undefined);
  for (const [index, record] of picked.entries()) {
    const text = JSON.stringify(record.payload).replaceAll(project, '/home/user/project');
    const fixture = {
      event: HOOK_EVENT_TO_EVENT[record.hookEvent],
      hookEvent: record.hookEvent,
      payload: JSON.parse(text),
      capturedWith: `opencode-ai ${OPENCODE_VERSION}`,
      ...(record.hookEvent === 'session.compacted' ? { expectSummary: SUMMARY } : {}),
    };
    const name = `${String(index + 1).padStart(2, '0')}-${record.hookEvent.replaceAll('.', '-')}.json`;
    await writeFile(join(dir, name), formatJson(fixture));
  }
  console.log(`wrote ${picked.length} fixtures to ${dir}`);
}

await main();
