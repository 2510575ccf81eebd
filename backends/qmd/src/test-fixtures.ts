import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type MemoryUnit, memoryWorkspacePath, serializeUnit } from '@cairn/core';
import { findDevQmdCommand, type QmdCommand } from './qmd-command';

/** Test helpers (not part of the package API). */

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

export const unitId = (n: number) => `UNIT:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function unit(n: number, text: string, fields: Partial<MemoryUnit> = {}): string {
  const at = fields.createdAt ?? '2026-03-01T10:00:00.000Z';
  return serializeUnit({
    memoryId: unitId(n),
    category: 'decision',
    review: 'approved',
    createdAt: at,
    updatedAt: at,
    text,
    ...fields,
  });
}

export async function writeWorkspaceFile(root: string, path: string, text: string): Promise<void> {
  const full = join(memoryWorkspacePath(root), path);
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, text);
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
