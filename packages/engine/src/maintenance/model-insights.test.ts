import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ModelServer,
  makeTempProject,
  startModelServer,
  type TempProject,
} from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cairn, openCairn } from '../index';
import { openMaintenance } from './maintenance-api';
import { MODEL_TOKEN_BUDGET } from './model-insights';

let project: TempProject;
let server: ModelServer;
let cairn: Cairn | undefined;
afterEach(async () => {
  cairn?.closeWorking();
  await server?.close();
  await project?.cleanup();
});

async function open(summarizer: Record<string, unknown>, trusted: boolean) {
  project = await makeTempProject();
  const home = join(project.root, 'home');
  const env = { HOME: home };
  // The model setting from the user's own config (trusted), or only from the project's file (not).
  const options = trusted
    ? { env, homeDir: home, overrides: { summarizer: summarizer as never } }
    : { env, homeDir: home };
  cairn = await openCairn(project.root, options);
  await cairn.init();
  if (!trusted) {
    await writeFile(join(project.root, '.cairn', 'config.json'), JSON.stringify({ summarizer }));
    cairn.closeWorking();
    cairn = await openCairn(project.root, options);
  }
  await cairn.add({ text: 'The billing export job writes CSV files every Sunday night.' });
  await cairn.add({ text: 'Invoices are rendered as PDF by the billing worker.', review: 'draft' });
  return openMaintenance(cairn, { env });
}

describe('insights from an OpenAI-compatible model', () => {
  it('asks once within the token budget, keeps only insights citing given evidence, and audits the cost', async () => {
    // The scripted model cites the draft's id it was shown, and one id it made up.
    server = await startModelServer({
      text: (request) =>
        JSON.stringify({
          insights: [
            {
              text: 'A billing draft waits for review.',
              evidence: [/UNIT:[0-9a-f-]{36}/.exec(request.text)?.[0]],
            },
            { text: 'Invented claim', evidence: ['run:made-up'] },
          ],
        }),
    });
    const maintenance = await open(
      { provider: 'openai', baseUrl: `${server.url}/v1`, model: 'test-model', apiKeyEnv: '' },
      true,
    );
    const outcome = await maintenance.run();
    expect(server.requests.filter((r) => r.api === 'openai-chat')).toHaveLength(1);
    const body = server.requests[0]!.body as { max_tokens: number };
    expect(body.max_tokens).toBeLessThan(MODEL_TOKEN_BUDGET);
    expect(outcome.action === 'ran' && outcome.run.model).toMatchObject({
      name: 'test-model',
      budgetTokens: MODEL_TOKEN_BUDGET,
    });
    const run = outcome.action === 'ran' ? outcome.run : undefined;
    expect(run!.model!.promptTokens + run!.model!.completionTokens).toBeLessThanOrEqual(
      MODEL_TOKEN_BUDGET,
    );
    const insights = await readFile(join(project.root, '.cairn/memory/memory-insights.md'), 'utf8');
    expect(insights).toContain('A billing draft waits for review. (model test-model)');
    expect(insights).not.toContain('Invented claim');
    const audit = await readFile(join(project.root, '.cairn/memory/memory-audit.md'), 'utf8');
    expect(audit).toMatch(
      /model test-model: \d+ prompt \+ \d+ completion tokens of a 4000-token budget/,
    );
  });

  it('a model named only by the untrusted project config is never called', async () => {
    server = await startModelServer();
    const maintenance = await open(
      { provider: 'openai', baseUrl: `${server.url}/v1`, model: 'test-model', apiKeyEnv: '' },
      false,
    );
    const outcome = await maintenance.run();
    expect(outcome.action === 'ran' && outcome.run.model).toBeFalsy();
    expect(server.requests).toHaveLength(0);
  });

  it('a failing model leaves the run extractive, with the reason in the audit', async () => {
    server = await startModelServer();
    await server.close();
    const maintenance = await open(
      { provider: 'openai', baseUrl: `${server.url}/v1`, model: 'test-model', apiKeyEnv: '' },
      true,
    );
    const outcome = await maintenance.run();
    expect(outcome.action === 'ran' && outcome.run.modelNote).toMatch(/stayed extractive/);
  });
});
