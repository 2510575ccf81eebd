import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { contextPackOutput } from './pack-tool';
import { callTool, connectInMemory } from './test-client';

let project: TempProject;
let cairn: Cairn;
let client: Client;

type Pack = z.output<typeof contextPackOutput>;

beforeEach(async () => {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  cairn = openCairn(project.root, {
    env: { HOME: home },
    homeDir: home,
    overrides: { timezone: 'UTC' },
  });
  await cairn.init();
  client = await connectInMemory(cairn);
});

afterEach(async () => {
  await client.close();
  cairn.closeWorking();
  await project.cleanup();
});

describe('memory_context_pack', () => {
  it('returns the pack with its receipt as structured content', async () => {
    await cairn.add({ text: 'The kestrel deploy runs on Fridays.' });
    await cairn.add({ text: 'The kestrel deploy might move to Mondays.', review: 'draft' });
    const { isError, text, structured } = await callTool(client, 'memory_context_pack', {
      query: 'kestrel deploy',
      agentId: 'claude',
      threadKey: 'cairn.main',
      budgetTokens: 1000,
    });
    expect(isError, text).toBe(false);
    const pack = structured as unknown as Pack;
    expect(JSON.parse(text)).toEqual(pack);
    expect(pack.planes?.map((p) => [p.plane, p.status])).toEqual([
      ['planning', 'ok'],
      ['history', 'ok'],
      ['long-term', 'ok'],
      ['documents', 'ok'],
    ]);
    expect(pack.items).toContainEqual(
      expect.objectContaining({
        plane: 'long-term',
        trustClass: 'approved',
        provenance: expect.objectContaining({ kind: 'unit' }),
      }),
    );
    expect(pack.items?.some((i) => i.text.includes('Mondays'))).toBe(false);
    expect(pack.excluded).toContainEqual(
      expect.objectContaining({ plane: 'long-term', reason: 'draft-or-deprecated' }),
    );
    expect(pack.budget).toMatchObject({ total: 1000, counter: 'o200k_base' });
    expect(pack.budget!.used).toBeLessThanOrEqual(1000);
    expect(pack.text).toContain('Fridays');
  });

  it('answers a bad thread key with INVALID_INPUT', async () => {
    const { isError, structured } = await callTool(client, 'memory_context_pack', {
      query: 'x',
      agentId: 'claude',
      threadKey: 'Not A Key',
    });
    expect(isError).toBe(true);
    expect((structured as unknown as Pack).error?.code).toBe('INVALID_INPUT');
  });
});
