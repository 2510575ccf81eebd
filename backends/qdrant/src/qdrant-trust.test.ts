import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from '@cairn/core';
import { fakeSecretDump, fakeSecrets, leakedFakeSecrets, tempProjectPerTest } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQdrantRetrievalAdapter } from './index';
import { sparseVectorOf } from './qdrant-payload';
import {
  type RecordedCall,
  type RecordingServer,
  startRecordingServer,
} from './recording-server.fixture';
import { unit, writeWorkspaceFile } from './test-fixtures';

// biome-ignore lint/suspicious/noExplicitAny: recorded JSON bodies are read field by field.
type Body = Record<string, any>;

const project = tempProjectPerTest();
let server: RecordingServer;
const open = (repo: string, namespace?: string) =>
  createQdrantRetrievalAdapter({
    rootDir: project.root,
    options: { url: server.url, repo, ...(namespace ? { namespace } : {}) },
  });

beforeEach(async () => {
  server = await startRecordingServer();
});
afterEach(async () => {
  await server.close();
});

const partitionOf = (namespace: string, repo: string) => [
  { key: 'namespace_id', match: { value: namespace } },
  { key: 'repo', match: { value: repo } },
];

/** Every filter a recorded request carries: its own and its prefetch arms'. */
function filtersOf(body: Body): Body[] {
  const filters = body.filter ? [body.filter] : [];
  for (const arm of body.prefetch ?? []) if (arm.filter) filters.push(arm.filter);
  return filters;
}

/** Whether a data request stays inside the partition: its filters, or the payload it writes. */
function checkPartition(call: RecordedCall, namespace: string, repo: string): void {
  const body = (call.body ?? {}) as Body;
  if (call.method === 'PUT' && call.path.endsWith('/points')) {
    expect(body.points.length).toBeGreaterThan(0);
    for (const point of body.points) {
      expect(point.payload).toMatchObject({ namespace_id: namespace, repo });
    }
    return;
  }
  const filters = filtersOf(body);
  expect(filters.length, `${call.method} ${call.path} has no filter`).toBeGreaterThan(0);
  for (const filter of filters) {
    expect(filter.must.slice(0, 2), `${call.method} ${call.path}`).toEqual(
      partitionOf(namespace, repo),
    );
  }
}

describe('qdrant trust', () => {
  it('sends no secret in a payload: units and raw text are redacted before upsert', async () => {
    const secrets = fakeSecrets();
    await writeWorkspaceFile(
      project.root,
      'MEMORY.md',
      `# Head\n\nThe quokkaflare deploy notes.\n${fakeSecretDump()}\n\n${unit(1, `Deploy with ${secrets[1]!.line}`)}\n`,
    );
    const query = `quokkaflare deploy ${secrets[1]!.value}`;
    await open('app').recall({ agentId: 'bob', query });
    const upserts = server.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/points'));
    expect(upserts.length).toBeGreaterThan(0);
    const sent = JSON.stringify(server.calls.map((c) => c.body));
    expect(leakedFakeSecrets(sent)).toEqual([]);
    const texts = upserts.flatMap((c) => (c.body as Body).points.map((p: Body) => p.payload.text));
    expect(texts.join('\n')).toContain('[REDACTED:github-token]');
    expect(texts.join('\n')).toContain('quokkaflare');
    // The query's vectors are those of the redacted text: none comes from the secret.
    const [search] = server.calls.filter((c) => c.path.endsWith('/points/query'));
    const keywords = (search!.body as Body).prefetch[1].query;
    expect(keywords).toEqual(sparseVectorOf(redactSecrets(query).text, true));
    expect(keywords).not.toEqual(sparseVectorOf(query, true));
  });

  it('every search, scroll, count, payload update, delete and upsert carries the partition', async () => {
    await writeWorkspaceFile(
      project.root,
      'MEMORY.md',
      `# Head\n\nThe quokkaflare deploys blue-green.\n\n${unit(1, 'Use pnpm.')}\n`,
    );
    const app = open('app', 'team');
    const other = open('other', 'team');
    await app.recall({ agentId: 'bob', query: 'quokkaflare' });
    await other.recall({ agentId: 'bob', query: 'quokkaflare' });
    const file = join(project.root, '.cairn/memory/MEMORY.md');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    await app.indexPaths([file]);
    await writeFile(file, '# Head\n\nOnly otterlamp now.\n');
    await app.indexPaths([file]);
    await app.registerPools([]);
    await app.recall({ agentId: 'bob', query: 'otterlamp' });
    await app.status();
    await other.status();

    const data = server.dataCalls();
    const kinds = new Set(data.map((c) => c.path.split('/').slice(3).join('/') || c.method));
    for (const kind of [
      'points',
      'points/payload',
      'points/query',
      'points/scroll',
      'points/delete',
      'points/count',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    // Each adapter's requests name its own repo, in one shared collection.
    const byRepo = (repo: string) =>
      data.filter(
        (c) =>
          JSON.stringify(c.body).includes(`"value":"${repo}"`) ||
          ((c.body as Body)?.points ?? []).some((p: Body) => p.payload.repo === repo),
      );
    expect(byRepo('app').length + byRepo('other').length).toBe(data.length);
    for (const call of byRepo('app')) checkPartition(call, 'team', 'app');
    for (const call of byRepo('other')) checkPartition(call, 'team', 'other');
  });
});
