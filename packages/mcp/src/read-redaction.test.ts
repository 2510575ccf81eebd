import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import {
  fakeSecretDump,
  fakeSecrets,
  leakedFakeSecrets,
  makeTempProject,
  type TempProject,
} from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, connectInMemory } from './test-client';

/**
 * The read tools hand the markdown to an agent, i.e. to a model: every
 * secret of the fake corpus is replaced in what they return (structured
 * content and its text copy alike), while the files keep it.
 */
let project: TempProject;
let cairn: Cairn;
let client: Client;
const unitIds = new Map<string, string>();
const kinds = () => [...new Set(fakeSecrets().map((s) => s.kind))].sort();

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  await cairn.init();
  for (const secret of fakeSecrets()) {
    const added = await cairn.add({
      text: `Deploy credential note: ${secret.line}`,
      category: 'fact',
    });
    if (added.action !== 'created')
      throw new Error(`seed failed for ${secret.kind}: ${added.action}`);
    unitIds.set(secret.value, added.memoryId);
  }
  await writeFile(
    join(project.root, '.cairn', 'memory', 'ops-notes.md'),
    `# Ops notes\n\nThe wombat deploy uses these:\n\n${fakeSecretDump()}\n`,
  );
  await cairn.write(`# Memory\n\nWombat deploy keys:\n\n${fakeSecretDump()}\n`);
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  cairn.closeWorking();
  await project.cleanup();
  unitIds.clear();
});

const reported = (redacted: { kind: string }[] | undefined) =>
  [...new Set((redacted ?? []).map((r) => r.kind))].sort();

describe('agent-facing reads redact secrets', () => {
  it.each(fakeSecrets().map((s) => [s.kind, s] as const))(
    'memory_get replaces a %s and says so',
    async (kind, secret) => {
      const got = await callTool(client, 'memory_get', { memoryId: unitIds.get(secret.value) });
      expect(got.isError).toBe(false);
      expect(leakedFakeSecrets(got.text)).toEqual([]);
      expect(got.structured.memory?.text).toContain(`[REDACTED:${kind}]`);
      expect(reported(got.structured.redacted)).toContain(kind);
    },
  );

  it('memory_list returns every unit with its secret replaced', async () => {
    const listed = await callTool(client, 'memory_list');
    expect(listed.structured.units).toHaveLength(fakeSecrets().length);
    expect(leakedFakeSecrets(listed.text)).toEqual([]);
    expect(reported(listed.structured.redacted)).toEqual(kinds());
  });

  it('memory_search redacts unit and plain markdown snippets', async () => {
    const found = await callTool(client, 'memory_search', {
      query: 'deploy credential wombat',
      limit: 100,
    });
    expect(found.isError).toBe(false);
    expect(found.structured.results?.some((r) => r.kind === 'RAW')).toBe(true);
    expect(found.structured.results?.some((r) => r.snippet.includes('[REDACTED:'))).toBe(true);
    expect(leakedFakeSecrets(found.text)).toEqual([]);
    expect(found.structured.redacted?.length).toBeGreaterThan(0);
  });

  it('memory_read_head redacts the head and the whole file', async () => {
    const head = await callTool(client, 'memory_read_head');
    expect(head.structured.content).toContain('[REDACTED:');
    expect(leakedFakeSecrets(head.text)).toEqual([]);
    expect(reported(head.structured.redacted)).toEqual(kinds());
    // The file on disk is the user's: it keeps the secrets.
    const onDisk = await readFile(join(project.root, '.cairn', 'memory', 'MEMORY.md'), 'utf8');
    expect(leakedFakeSecrets(onDisk)).toHaveLength(fakeSecrets().length);
  });

  it('a unit without a secret comes back as written, with no `redacted` field', async () => {
    const added = await cairn.add({ text: 'Releases are cut on Tuesdays.', category: 'fact' });
    if (added.action !== 'created') throw new Error('seed failed');
    const got = await callTool(client, 'memory_get', { memoryId: added.memoryId });
    expect(got.structured.memory?.text).toBe('Releases are cut on Tuesdays.');
    expect(got.structured.redacted).toBeUndefined();
  });
});

describe('memory_replace after a redacted read', () => {
  const secret = () => fakeSecrets().find((s) => s.kind === 'assignment')!;

  it('refuses a text that would write the placeholder over the secret, and changes nothing', async () => {
    const id = unitIds.get(secret().value)!;
    const read = await callTool(client, 'memory_get', { memoryId: id });
    const edited = `${read.structured.memory?.text} (rotated monthly)`;
    const replaced = await callTool(client, 'memory_replace', { memoryId: id, text: edited });
    expect(replaced.isError).toBe(true);
    expect(replaced.structured.error).toMatchObject({ code: 'CONFLICT' });
    expect(replaced.structured.error?.hint).toMatch(/edit .* by hand/);
    expect((await cairn.get(id)).text).toContain(secret().value);
  });

  it('lets a rewrite without a placeholder through', async () => {
    const id = unitIds.get(secret().value)!;
    const text = 'The database password lives in the team vault now.';
    const replaced = await callTool(client, 'memory_replace', { memoryId: id, text });
    expect(replaced.structured.action).toBe('replaced');
    expect((await cairn.get(id)).text).toBe(text);
  });

  it('lets a placeholder through for a unit that held no secret (nothing to lose)', async () => {
    const added = await cairn.add({ text: 'Tokens are redacted in packs.', category: 'fact' });
    if (added.action !== 'created') throw new Error('seed failed');
    const text = 'Packs show tokens as [REDACTED:github-token].';
    const replaced = await callTool(client, 'memory_replace', { memoryId: added.memoryId, text });
    expect(replaced.structured.action).toBe('replaced');
  });
});
