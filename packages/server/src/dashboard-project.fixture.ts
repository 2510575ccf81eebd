import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import { type Cairn, openCairn } from '@cairn/engine';

/** What a seeded project holds, by id, for the tests to find in the pages. */
export interface SeededProject {
  approvedId: string;
  draftId: string;
  patternId: string;
  /** The daily file the units are in. */
  dailyFile: string;
  agentId: string;
  sessionKey: string;
}

/** The project's memory with this test's home (no user config of the machine's user). */
export async function openProject(
  root: string,
  backend?: 'readonly',
  now?: () => Date,
): Promise<Cairn> {
  return openCairn(root, {
    env: {},
    homeDir: join(root, 'home'),
    overrides: { timezone: 'UTC', ...(backend ? { memoryBackendType: backend } : {}) },
    ...(now ? { now } : {}),
  });
}

/** Units of a week of work, a day apart; the last two are drafts. */
const UNITS = [
  'Use pnpm for dependency management in this workspace.',
  'The build runs with `pnpm build` at the repository root (turbo).',
  'Prefer small commits with conventional subjects.',
  'Integration tests need the Postgres container from docker-compose.test.yml.',
  'The payments service retries webhooks three times with exponential backoff.',
  'Feature flags live in config/flags.yaml and are read at start-up only.',
  'Never log request bodies of the auth endpoints: they carry passwords.',
  'The staging deploy runs from the release branch, not from main.',
];
const DRAFTS = [
  'The release checklist lives in docs/RELEASING.md.',
  'Database migrations must be backwards compatible for one release.',
];

async function add(cairn: Cairn, text: string, review?: 'draft'): Promise<string> {
  const result = await cairn.add({ text, ...(review ? { review, source: 'fixture' } : {}) });
  if (result.action !== 'created') throw new Error(`fixture add failed: ${JSON.stringify(result)}`);
  return result.memoryId;
}

const importError = (dir: string) =>
  `file://${dir}/main.mjs:1\nimport { greet } from './lib/greet.mjs';\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '${dir}/lib/greet.mjs' imported from ${dir}/main.mjs\n    at finalizeResolution (node:internal/modules/esm/resolve:275:11)\n\nNode.js v20.20.0`;

/** A session as the hooks record it: an injection per prompt, a failing command fixed, a summary. */
async function liveSession(cairn: Cairn, agentId: string, sessionKey: string, dir: string) {
  const base = { agentId, sessionKey };
  await cairn.lifecycle.sessionStart({ ...base, harness: agentId, cwd: dir });
  await cairn.lifecycle.userPromptSubmit({
    ...base,
    prompt: 'How do we do dependency management with pnpm in this workspace?',
  });
  const bash = (command: string, output: unknown) =>
    cairn.lifecycle.toolUse({ ...base, toolName: 'Bash', input: { command }, output });
  await bash('node main.mjs', { stdout: '', stderr: importError(dir) });
  await cairn.lifecycle.toolUse({
    ...base,
    toolName: 'Write',
    input: { file_path: `${dir}/lib/greet.mjs`, content: 'export const greet = 1;' },
    output: { type: 'create' },
  });
  await bash('node main.mjs', { stdout: 'hello', stderr: '' });
  await cairn.lifecycle.userPromptSubmit({ ...base, prompt: 'Remind me how the build is run' });
  await cairn.lifecycle.sessionEnd({ ...base, reason: 'exit' });
}

const traceback = `Traceback (most recent call last):
  File "/w/two/manage.py", line 12, in <module>
    from django.core.management import execute_from_command_line
ModuleNotFoundError: No module named 'django'
`;

/** A failure met once and fixed: a candidate fix pattern. */
async function pythonFix(cairn: Cairn, agentId: string, sessionKey: string) {
  const bash = (command: string, output: unknown) =>
    cairn.lifecycle.toolUse({ agentId, sessionKey, toolName: 'Bash', input: { command }, output });
  await bash('python manage.py migrate', { stdout: '', stderr: traceback });
  await bash('pip install django', { stdout: 'Successfully installed django-5.1', stderr: '' });
  await bash('python manage.py migrate', { stdout: 'No migrations to apply.', stderr: '' });
}

/**
 * A lived-in project through the engine's public API: approved and draft
 * units with the user's own text around them in the daily file, two
 * sessions with injections (receipts), lineage nodes and a fix pattern.
 */
export async function seedProject(root: string): Promise<SeededProject> {
  // A clock that walks through a week, so the memory grows over days.
  let clock = Date.parse('2026-11-02T09:00:00.000Z');
  const tick = () => {
    clock += 1000;
    return new Date(clock);
  };
  const cairn = await openProject(root, undefined, tick);
  try {
    await cairn.init();
    for (const text of UNITS.slice(1)) {
      await add(cairn, text);
      clock += 20 * 3600_000;
    }
    // The last day's file: an approved unit, then drafts, then the user's notes.
    const approvedId = await add(cairn, UNITS[0]!);
    const drafts: string[] = [];
    for (const text of DRAFTS) drafts.push(await add(cairn, text, 'draft'));
    const draftId = drafts[0]!;
    const dailyFile = `${new Date(clock).toISOString().slice(0, 10)}.md`;
    // The user's own notes after the units, one of them not UTF-8: kept byte for byte.
    appendFileSync(
      join(memoryWorkspacePath(root), dailyFile),
      Buffer.concat([
        Buffer.from('\n## My notes\n\nCaf'),
        Buffer.from([0xe9]),
        Buffer.from(' au lait is on floor 2.\n'),
      ]),
    );
    await liveSession(cairn, 'claude-code', 's-1', '/w/one');
    await pythonFix(cairn, 'claude-code', 's-2');
    await liveSession(cairn, 'claude-code', 's-2', '/w/two');
    const patternId = (await import('@cairn/engine')).listFixPatterns(root)[0]?.id;
    if (!patternId) throw new Error('fixture: no fix pattern was learned');
    return { approvedId, draftId, patternId, dailyFile, agentId: 'claude-code', sessionKey: 's-1' };
  } finally {
    cairn.closeWorking();
  }
}
