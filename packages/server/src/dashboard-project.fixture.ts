import { appendFileSync, readdirSync } from 'node:fs';
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
export function openProject(root: string, backend?: 'readonly'): Cairn {
  return openCairn(root, {
    env: {},
    homeDir: join(root, 'home'),
    overrides: { timezone: 'UTC', ...(backend ? { memoryBackendType: backend } : {}) },
  });
}

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

/**
 * A lived-in project through the engine's public API: approved and draft
 * units with the user's own text around them in the daily file, two
 * sessions with injections (receipts), lineage nodes and a fix pattern.
 */
export async function seedProject(root: string): Promise<SeededProject> {
  const cairn = openProject(root);
  try {
    await cairn.init();
    const approvedId = await add(cairn, 'Use pnpm for dependency management in this workspace.');
    await add(cairn, 'The build runs with `pnpm build` at the repository root (turbo).');
    await add(cairn, 'Prefer small commits with conventional subjects.');
    const draftId = await add(cairn, 'The release checklist lives in docs/RELEASING.md.', 'draft');
    const dailyFile = readdirSync(memoryWorkspacePath(root)).find((name) =>
      /^\d{4}-\d\d-\d\d\.md$/.test(name),
    )!;
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
    await liveSession(cairn, 'claude-code', 's-2', '/w/two');
    const patternId = (await import('@cairn/engine')).listFixPatterns(root)[0]?.id;
    if (!patternId) throw new Error('fixture: no fix pattern was learned');
    return { approvedId, draftId, patternId, dailyFile, agentId: 'claude-code', sessionKey: 's-1' };
  } finally {
    cairn.closeWorking();
  }
}
