import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import {
  fakeSecretDump,
  fakeSecrets,
  leakedFakeSecrets,
  makeTempProject,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openLineageStore } from '../lineage';
import { renderPack, retrieveContextPack } from '../packs';
import { type ChatTestServer, completion, startChatServer } from '../summaries/chat-server.fixture';

/**
 * Secrets in prompts, tool output, units and model output, through every
 * path that leaves Cairn: what the hooks inject (session start, prompt
 * submit, pre-compaction), what the summarizer and the embedder are sent
 * (recorded by a local server), and what an expansion hands an agent. The
 * lineage on disk keeps the raw text.
 */
const secrets = fakeSecrets();
const line = (i: number) => secrets[i]!.line.split('\n')[0]!;

// The model echoes secrets back: its output is as untrusted as the transcript.
const modelReply = {
  text: `## Status\nRotated ${secrets[1]!.value} today.`,
  status: `Deploy done with ${line(3)}`,
  decisions: [`Use ${line(11)} for the staging database`],
  commitments: [],
  blockers: [],
  nextSteps: [`Revoke ${secrets[0]!.value}`],
  files: [],
  commands: [line(4)],
};

let project: TempProject;
let server: ChatTestServer;
let cairn: Cairn;
let clock = 0;

beforeEach(async () => {
  project = await makeTempProject();
  clock = Date.parse('2026-05-01T09:00:00.000Z');
  server = await startChatServer((request) => {
    if (request.path.endsWith('/embeddings')) {
      const input = request.body.input as string[];
      return {
        status: 200,
        body: {
          data: input.map((text, index) => ({ index, embedding: [text.length % 7, 1, 0, 1] })),
        },
      };
    }
    return completion(JSON.stringify(modelReply));
  });
  cairn = await openCairn(project.root, {
    env: {
      CAIRN_EMBEDDER_PROVIDER: 'openai',
      CAIRN_EMBEDDER_BASE_URL: server.baseUrl,
      CAIRN_EMBEDDER_MODEL: 'tiny',
      CAIRN_EMBEDDER_DIMENSIONS: '4',
      CAIRN_EMBEDDER_API_KEY_ENV: '',
    },
    homeDir: join(project.root, 'home'),
    overrides: {
      timezone: 'UTC',
      summarizer: { provider: 'openai', baseUrl: server.baseUrl, model: 'm', apiKeyEnv: '' },
    },
    now: () => {
      clock += 60_000;
      return new Date(clock);
    },
  });
  await cairn.init();
});
afterEach(async () => {
  cairn.closeWorking();
  await server.close();
  await project.cleanup();
});

const S1 = { agentId: 'claude', sessionKey: 's1', cwd: '', harness: 'claude-code' };
const S2 = { ...S1, sessionKey: 's2' };

describe('secrets never travel', () => {
  it('through every injection path, the summarizer and the embedder; the lineage keeps them', async () => {
    await cairn.add({ text: `The kestrel deploy token lives in ${line(1)} and ${line(5)}.` });
    const injected: string[] = [];
    const inject = (result: { inject: string }) => injected.push(result.inject);

    inject(await cairn.lifecycle.sessionStart({ ...S1, cwd: project.root }));
    inject(
      await cairn.lifecycle.userPromptSubmit({
        ...S1,
        prompt: `kestrel deploy: use ${secrets[1]!.value} and ${line(6)}`,
      }),
    );
    await cairn.lifecycle.toolUse({
      ...S1,
      toolName: 'Bash',
      input: { command: `env | grep KEY; echo ${line(3)}` },
      output: fakeSecretDump(),
    });
    inject(await cairn.lifecycle.preCompaction({ ...S1, trigger: 'auto' }));
    const end = await cairn.lifecycle.sessionEnd({ ...S1, reason: 'exit' });
    expect(end.nodeId).toMatch(/^node:/);

    inject(await cairn.lifecycle.sessionStart({ ...S2, cwd: project.root }));
    inject(
      await cairn.lifecycle.userPromptSubmit({ ...S2, prompt: 'kestrel deploy token status?' }),
    );
    inject(await cairn.lifecycle.preCompaction({ ...S2, trigger: 'manual' }));
    await cairn.search({ query: `kestrel ${secrets[2]!.value}` });

    // The context pack (history and long-term planes) and its receipt.
    const pack = await retrieveContextPack(
      { query: 'kestrel deploy token', agentId: 'claude' },
      { rootDir: project.root, settings: cairn.settings, search: (r) => cairn.search(r) },
    );
    expect(pack.items.some((item) => item.redacted.length > 0)).toBe(true);
    injected.push(pack.text, JSON.stringify(pack.items), renderPack(pack.items));

    const all = injected.join('\n');
    expect(all).toContain('kestrel');
    expect(all).toContain('[REDACTED:');
    expect(leakedFakeSecrets(all)).toEqual([]);

    const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const embeds = server.requests.filter((r) => r.path.endsWith('/embeddings'));
    expect(chats.length).toBeGreaterThan(0);
    expect(embeds.length).toBeGreaterThan(0);
    expect(JSON.stringify(chats.map((r) => r.body))).toContain('[REDACTED:');
    expect(leakedFakeSecrets(JSON.stringify(server.requests.map((r) => r.body)))).toEqual([]);

    // Expanding the summary for an agent is redacted too.
    const expanded = cairn.expand(end.nodeId!, 'claude');
    expect(leakedFakeSecrets(JSON.stringify(expanded))).toEqual([]);
    expect(expanded.redacted.length).toBeGreaterThan(0);

    // Tier 3 stays lossless on the user's machine.
    const store = openLineageStore(project.root);
    try {
      const raw = JSON.stringify(store.getTranscript('claude', 's1'));
      expect(leakedFakeSecrets(raw).length).toBe(secrets.length);
    } finally {
      store.close();
    }
    // The heads Cairn writes into the repository (MEMORY.md, threads/) hold no secret either.
    const workspace = memoryWorkspacePath(project.root);
    // This clone's head, kept in heads.db, is redacted as it is distilled.
    const local = cairn.localHead()!;
    expect(local).toContain('[REDACTED:');
    expect(leakedFakeSecrets(local)).toEqual([]);
    const threads = await readdir(join(workspace, 'threads'));
    expect(threads.length).toBeGreaterThan(0);
    for (const file of [...threads.map((name) => join('threads', name)), 'MEMORY.md']) {
      expect(leakedFakeSecrets(await readFile(join(workspace, file), 'utf8')), file).toEqual([]);
    }
  });
});
