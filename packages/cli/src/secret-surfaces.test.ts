import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { type McpServerHandle, serveStdio } from '@cairn/mcp';
import {
  leakedCorpusSecrets,
  makeTempProject,
  secretCorpus,
  type TempProject,
} from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from './cli';
import { runInProcess } from './fuzz-harness';
import { LineClient } from './mcp-line-client';
import { cliRunner } from './test-cli';

/**
 * The one redaction step, walked end to end: a project whose units, plain
 * notes, MEMORY.md, transcripts, run digest and learned fix pattern all
 * hold the whole corpus of fake secrets (every class of docs/SECURITY.md),
 * then every tool the MCP server lists (tools/list, so a tool added later
 * is walked too, and must be given arguments below) and every CLI command
 * with --json (COMMANDS, the same rule). No corpus secret may appear in
 * any answer, error or not.
 */

const AGENT = 'codex';
const SESSION = 'walk-1';
const THREAD = 'walk.main';
const corpus = secretCorpus();
const lines = corpus.map((secret) => secret.line);
const dump = lines.join('\n');
// Letters only after AKIA: error signatures keep it (an id with digits becomes `<id>`).
const awsKey = ['AK', 'IA', 'QWERTYUIOPASDFGH'].join('');
const awsFailure = `An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. (AccessKeyId: ${awsKey})`;

/** Corpus lines in groups that fit a unit (2,000 characters at most). */
function chunks(): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current && current.length + line.length > 1500) {
      out.push(current);
      current = '';
    }
    current += `${line}\n`;
  }
  return [...out, current];
}

let project: TempProject;
const ids = { unit: '', draft: '', node: '', pattern: '' };

async function seedTranscripts(cairn: Cairn): Promise<void> {
  const session = { agentId: AGENT, sessionKey: SESSION, threadKey: THREAD };
  await cairn.lifecycle.sessionStart({ ...session, cwd: project.root });
  for (const chunk of chunks()) {
    await cairn.lifecycle.userPromptSubmit({ ...session, prompt: `Deploy with these:\n${chunk}` });
    await cairn.lifecycle.toolUse({
      ...session,
      toolName: 'shell',
      input: { command: 'cat .env' },
      output: `Exit code: 0\n${chunk}`,
    });
  }
  // A fix pattern learned from an AWS CLI error that names the key id.
  const aws = (command: string, exitCode: number, text: string) =>
    cairn.lifecycle.toolUse({
      ...session,
      toolName: 'shell',
      input: { command },
      output: `Exit code: ${exitCode}\n${text}`,
    });
  await aws('aws sts get-caller-identity', 254, awsFailure);
  await aws(`aws configure set aws_access_key_id ${awsKey}`, 0, '');
  await aws('aws sts get-caller-identity', 0, '{"Account": "123456789012"}');
  const end = await cairn.lifecycle.sessionEnd({ ...session, deferSummary: true });
  ids.node = end.nodeId ?? '';
}

async function seed(): Promise<void> {
  expect((await runInProcess(project.root, ['init'])).code).toBe(0);
  const home = join(project.root, 'home');
  const cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
  try {
    for (const [i, chunk] of chunks().entries()) {
      const added = await cairn.add({
        text: `Deploy notes ${i}:\n${chunk}`,
        category: 'fact',
        ...(i === 0 ? { review: 'draft' as const } : {}),
      });
      if (added.action !== 'created') throw new Error(`seed unit ${i}: ${added.action}`);
      if (i === 0) ids.draft = added.memoryId;
      else ids.unit ||= added.memoryId;
    }
    await writeFile(join(project.root, '.cairn/memory/memory-insights.md'), `# Ops\n\n${dump}\n`);
    await writeFile(join(project.root, '.cairn/config.json'), '{}\n');
    await cairn.write(`# Memory\n\nDeploy keys:\n\n${dump}\n`);
    await seedTranscripts(cairn);
  } finally {
    cairn.closeWorking();
  }
  const patterns = JSON.parse((await cli(['history', 'patterns', '--json'])).stdout);
  ids.pattern = patterns.patterns[0]?.id ?? '';
}

const cli = (argv: string[], stdin?: string) => runInProcess(project.root, argv, stdin);

/** The built binary, for the one command that loads a package the bundle carries (`mcp`). */
const built = cliRunner(() => project.root);

/** The fake secrets found in an answer: the corpus and the AWS key id of the fix pattern. */
const leaked = (answer: string) => [
  ...leakedCorpusSecrets(answer),
  ...(answer.includes(awsKey) ? [awsKey] : []),
];

/** The payload of a Claude Code hook event. */
const hookPayload = (event: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: 'walk-hook',
    transcript_path: join(project.root, 't.jsonl'),
    cwd: project.root,
    hook_event_name: event,
    ...fields,
  });

/** Every command with the calls that walk it; a command missing here fails the test. */
const CLI_CALLS: Record<string, () => { argv: string[]; stdin?: string }[]> = {
  init: () => [{ argv: ['init'] }],
  status: () => [{ argv: ['status'] }],
  read: () => [{ argv: ['read'] }],
  add: () => [{ argv: ['add', '--', `Another deploy note: ${lines[3]}`] }],
  replace: () => [{ argv: ['replace', ids.unit, '--', `Rotated: ${lines[5]}`] }],
  remove: () => [{ argv: ['remove', ids.unit] }],
  get: () => [{ argv: ['get', ids.draft] }, { argv: ['get', 'RAW:memory-insights.md#L1-L400'] }],
  list: () => [{ argv: ['list'] }],
  search: () =>
    ['password', 'token', 'Authorization', 'machine login', 'secret key', 'deploy'].map((q) => ({
      argv: ['search', q, '--limit', '50'],
    })),
  reindex: () => [{ argv: ['reindex'] }],
  doctor: () => [{ argv: ['doctor'] }],
  expand: () => [{ argv: ['expand', ids.node, '--agent', AGENT] }],
  threads: () => [{ argv: ['threads'] }],
  head: () => [{ argv: ['head'] }, { argv: ['head', '--agent', AGENT, '--thread', THREAD] }],
  lifecycle: () => [
    {
      argv: ['lifecycle', 'user-prompt-submit'],
      stdin: JSON.stringify({ agentId: AGENT, sessionKey: 'walk-2', prompt: 'deploy password' }),
    },
  ],
  install: () => [{ argv: ['install', 'claude-code', '--dry-run'] }],
  uninstall: () => [{ argv: ['uninstall', 'claude-code'] }],
  hook: () => [
    { argv: ['hook', 'claude-code', 'SessionStart'], stdin: hookPayload('SessionStart') },
    {
      argv: ['hook', 'claude-code', 'UserPromptSubmit'],
      stdin: hookPayload('UserPromptSubmit', { prompt: 'which deploy password and token' }),
    },
    {
      argv: ['hook', 'claude-code', 'PostToolUseFailure'],
      stdin: hookPayload('PostToolUseFailure', {
        tool_name: 'Bash',
        tool_input: { command: 'aws sts get-caller-identity' },
        tool_use_id: 't',
        error: `Exit code 254\n${awsFailure}`,
      }),
    },
  ],
  mcp: () => [{ argv: ['mcp', 'token'] }],
  trust: () => [{ argv: ['trust'] }],
  history: () => [
    { argv: ['history', 'signature', '--command', 'aws sts'], stdin: awsFailure },
    { argv: ['history', 'patterns'] },
    { argv: ['history', 'pattern', ids.pattern] },
    { argv: ['history', 'approve', ids.pattern] },
    { argv: ['history', 'deprecate', ids.pattern] },
    { argv: ['history', 'runs', '--agent', AGENT] },
    { argv: ['history', 'show', SESSION, '--agent', AGENT] },
    { argv: ['history', 'share'] },
  ],
  // The archive holds the secrets (a backup: docs/TEAMS.md); what the two commands answer does not.
  export: () => [{ argv: ['export', '--out', join(project.root, 'walk.jsonl.gz')] }],
  import: () => [{ argv: ['import', join(project.root, 'walk.jsonl.gz')] }],
  pack: () => [
    { argv: ['pack', 'deploy password token', '--agent', AGENT, '--thread', THREAD] },
    { argv: ['pack', '--last'] },
  ],
  review: () => [{ argv: ['review'] }, { argv: ['review', 'approve', ids.draft] }],
  insights: () => [{ argv: ['insights', 'run'] }, { argv: ['insights', 'status'] }],
  // The dashboard is a person's page (docs/SECURITY.md); `ui --json` is refused before it serves.
  ui: () => [{ argv: ['ui'] }],
  'hook-server': () => [{ argv: ['hook-server', 'status'] }],
  // Last: it replaces MEMORY.md.
  write: () => [{ argv: ['write'], stdin: `# Memory\n\n${dump}\n` }],
};

/** Every tool with the arguments that walk it; a listed tool missing here fails the test. */
const MCP_CALLS: Record<string, () => Record<string, unknown>[]> = {
  memory_search: () => ['password', 'token', 'Authorization', 'deploy'].map((query) => ({ query })),
  memory_get: () => [{ memoryId: ids.draft }, { memoryId: 'RAW:memory-insights.md#L1-L400' }],
  memory_list: () => [{}],
  memory_read_head: () => [{}],
  memory_expand: () => [{ nodeId: ids.node, agentId: AGENT }],
  memory_threads: () => [{}],
  memory_thread_head: () => [{ agentId: AGENT, threadKey: THREAD }],
  memory_session_context: () => [{ agentId: AGENT, sessionKey: 'walk-3', threadKey: THREAD }],
  memory_context_pack: () => [
    { query: 'deploy password token', agentId: AGENT, threadKey: THREAD },
    { last: true },
  ],
  memory_run_digest: () => [{}, { run: SESSION, agentId: AGENT }],
  memory_review: () => [{}],
  memory_fix_patterns: () => [{}],
  memory_fix_pattern: () => [{ id: ids.pattern }],
  memory_fix_pattern_approve: () => [{ id: ids.pattern }],
  memory_fix_pattern_deprecate: () => [{ id: ids.pattern }],
  memory_insights_run: () => [{}],
  memory_proposals: () => [{}, { state: 'rejected' }],
  memory_proposal_decide: () => [{ id: 'P-000000000000', decision: 'reject' }],
  memory_stale_units: () => [{}],
  memory_add: () => [{ text: `Yet another deploy note: ${lines[7]}` }],
  memory_replace: () => [{ memoryId: ids.draft, text: `Rotated again: ${lines[9]}` }],
  // Last: it removes the unit the others read.
  memory_remove: () => [{ memoryId: ids.draft }],
};

beforeAll(async () => {
  project = await makeTempProject('cairn-secret-walk-');
  await seed();
}, 120_000);
afterAll(() => project.cleanup());

describe('no secret of the corpus leaves through any surface', () => {
  it('the seeded project holds every secret of the corpus', () => {
    expect(ids).toMatchObject({ unit: expect.stringMatching(/^UNIT:/), pattern: /^FIX-/ });
    expect(ids.node).toMatch(/^node:/);
    expect(leakedCorpusSecrets(dump)).toHaveLength(corpus.length);
  });

  // The CLI first: the MCP walk ends by removing the unit both read.
  it('every CLI command with --json', async () => {
    const names = COMMANDS.map((command) => command.name);
    expect(
      names.filter((name) => !CLI_CALLS[name]),
      'commands without calls here',
    ).toEqual([]);
    const answers = new Map<string, string>();
    for (const name of Object.keys(CLI_CALLS)) {
      for (const { argv, stdin } of CLI_CALLS[name]!()) {
        const args = [argv[0]!, '--json', ...argv.slice(1)];
        const run = name === 'mcp' ? built.run(args, stdin) : await cli(args, stdin);
        const answer = run.stdout + run.stderr;
        expect(leaked(answer), `cairn ${args.join(' ')}`).toEqual([]);
        answers.set(argv.join(' '), answer);
      }
    }
    // The walk met the secrets: these answers carry marks where they were.
    const marked = (prefix: string) =>
      [...answers].some(
        ([call, answer]) => call.startsWith(prefix) && answer.includes('[REDACTED:'),
      );
    const surfaces = [
      'read',
      'get UNIT:',
      'list',
      'search password',
      'expand node:',
      'hook claude-code UserPromptSubmit',
      'pack deploy',
      'history signature',
      'history show',
    ];
    expect(surfaces.filter((prefix) => !marked(prefix))).toEqual([]);
  }, 180_000);

  it('every MCP tool the server lists', async () => {
    const home = join(project.root, 'home');
    const cairn = await openCairn(project.root, { env: { HOME: home }, homeDir: home });
    const client = new LineClient();
    const server: McpServerHandle = await serveStdio(cairn, {
      stdin: client.stdin,
      stdout: client.stdout,
    });
    try {
      await client.call('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'walk', version: '0' },
      });
      const listed = (await client.call('tools/list', {})) as {
        result?: { tools?: { name: string }[] };
      };
      const names = (listed.result?.tools ?? []).map((tool) => tool.name);
      expect(names.length).toBeGreaterThan(10);
      expect(
        names.filter((name) => !MCP_CALLS[name]),
        'tools without arguments here',
      ).toEqual([]);
      let marks = 0;
      for (const name of Object.keys(MCP_CALLS).filter((tool) => names.includes(tool))) {
        for (const args of MCP_CALLS[name]!()) {
          const answer = JSON.stringify(await client.call('tools/call', { name, arguments: args }));
          expect(leaked(answer), `${name} ${JSON.stringify(args)}`).toEqual([]);
          if (name === 'memory_fix_pattern') expect(answer).toContain('[REDACTED:aws-access-key]');
          marks += answer.split('[REDACTED:').length - 1;
        }
      }
      expect(marks).toBeGreaterThan(corpus.length);
    } finally {
      await server.close();
      cairn.closeWorking();
    }
  }, 120_000);
});
