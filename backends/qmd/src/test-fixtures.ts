import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryUnit } from '@cairn/core';
import { fixtureUnit } from '@cairn/testkit';
import { findDevQmdCommand, type QmdCommand } from './qmd-command';

/** Test helpers (not part of the package API). */

export { fixtureUnitId as unitId, writeWorkspaceFile } from '@cairn/testkit';

/** A managed unit as on disk; these tests default to a `decision`. */
export function unit(n: number, text: string, fields: Partial<MemoryUnit> = {}): string {
  return fixtureUnit(n, text, { category: 'decision', ...fields });
}

/**
 * The real qmd (the devDependency copy under the Node 24 binary of
 * @cairn/node24). The tests exist to run against it, so a missing one fails loudly.
 */
export async function realQmd(): Promise<QmdCommand> {
  const command = await findDevQmdCommand();
  if (!command) {
    throw new Error('the dev copy of qmd or the Node 24 binary is missing: run pnpm install');
  }
  return command;
}

/** Writes a stand-in qmd (a Node script run by this Node) and returns its command. */
export async function fakeQmd(dir: string, name: string, body: string): Promise<QmdCommand> {
  const script = join(dir, `${name}.mjs`);
  await writeFile(script, body);
  return [process.execPath, script];
}

/**
 * A qmd that logs each argument list (one JSON line in `log`) and then runs
 * the real qmd with them: lets a test see which qmd commands ran, and when.
 */
export async function recordingQmd(dir: string, log: string): Promise<QmdCommand> {
  const [node, ...entry] = await realQmd();
  const body = `
import { appendFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + '\\n');
const run = spawnSync(${JSON.stringify(node)}, [...${JSON.stringify(entry)}, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
`;
  return fakeQmd(dir, 'recording-qmd', body);
}

/** The qmd subcommands a recording qmd ran (`--index <name>` left out). */
export async function loggedCommands(log: string): Promise<string[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const args = JSON.parse(line) as string[];
      const rest = args[0] === '--index' ? args.slice(2) : args;
      return rest[0] === 'collection' ? `collection ${rest[1]}` : rest[0]!;
    });
}
