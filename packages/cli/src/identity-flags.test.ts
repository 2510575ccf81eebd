import { MAX_KEY_CHARS, MAX_THREAD_KEY_CHARS } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRunner } from './test-cli';

/*
 * The CLI surface of core's identity rules (contracts/schemas.ts): a flag or
 * payload field at the limit is accepted, one character more is INVALID_INPUT.
 * Lifecycle, lineage and MCP: packages/mcp/src/identity-limits.test.ts.
 */

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

const cli = cliRunner(() => project.root, { CAIRN_TIMEZONE: 'UTC' });

function refused(args: string[], input?: string): void {
  const run = cli.run(args, input);
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('INVALID_INPUT');
}

const lifecycle = (event: string, payload: object) =>
  cli.run(['lifecycle', event], JSON.stringify(payload));

describe('identity flags and payloads of the CLI', () => {
  it(`--agent and the agentId field: ${MAX_KEY_CHARS} characters, not one more`, () => {
    cli.run(['init']);
    const atLimit = 'a'.repeat(MAX_KEY_CHARS);
    const over = `${atLimit}a`;
    expect(cli.run(['threads', '--agent', atLimit, '--json']).code).toBe(0);
    refused(['threads', '--agent', over]);
    refused(['expand', 'node:00000000-0000-4000-8000-000000000000', '--agent', over]);
    const prompt = { sessionKey: 's', prompt: 'hi' };
    expect(lifecycle('user-prompt-submit', { ...prompt, agentId: atLimit }).code).toBe(0);
    refused(['lifecycle', 'user-prompt-submit'], JSON.stringify({ ...prompt, agentId: over }));
  });

  it(`the sessionKey field: ${MAX_KEY_CHARS} characters, not one more`, () => {
    cli.run(['init']);
    const atLimit = 's'.repeat(MAX_KEY_CHARS);
    const prompt = { agentId: 'a', prompt: 'hi' };
    expect(lifecycle('user-prompt-submit', { ...prompt, sessionKey: atLimit }).code).toBe(0);
    refused(
      ['lifecycle', 'user-prompt-submit'],
      JSON.stringify({ ...prompt, sessionKey: `${atLimit}s` }),
    );
  });

  it(`--thread and the threadKey field: ${MAX_THREAD_KEY_CHARS} characters, not one more`, () => {
    cli.run(['init']);
    const atLimit = `t${'x'.repeat(MAX_THREAD_KEY_CHARS - 1)}`;
    const over = `${atLimit}x`;
    const session = { agentId: 'a', sessionKey: 's' };
    expect(lifecycle('session-start', { ...session, threadKey: atLimit }).code).toBe(0);
    expect(lifecycle('session-end', session).code).toBe(0);
    expect(cli.run(['head', '--agent', 'a', '--thread', atLimit]).stdout).toContain(atLimit);
    refused(['head', '--agent', 'a', '--thread', over]);
    refused(
      ['lifecycle', 'session-start'],
      JSON.stringify({ agentId: 'a', sessionKey: 's2', threadKey: over }),
    );
  });
});
