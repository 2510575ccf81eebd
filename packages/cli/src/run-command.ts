import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CairnError, typedFileSystemError } from '@cairn/core';
import type { Cairn, MemorySearch, OpenCairnOptions } from '@cairn/engine';
import { assertProjectLayout, findProjectRoot, loadConfiguredPackages } from '@cairn/engine';
import type { CommandSpec, OptionSpec } from './command';
import { EXIT, exitCodeFor } from './exit-codes';
import { type CliIO, oneLine, printError, printJson } from './io';

/** How a runner opens a project: the whole engine, or its search alone. */
export interface ProjectOpeners {
  open(root: string, options: OpenCairnOptions): Cairn;
  openSearch(root: string, options: OpenCairnOptions): MemorySearch;
}

const GLOBAL_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  root: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function usageError(message: string, command?: CommandSpec): CairnError {
  return new CairnError('INVALID_INPUT', message, {
    hint: command ? `usage: ${command.usage}` : 'run `cairn --help` for the commands',
  });
}

function parse(command: CommandSpec, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageError((error as Error).message, command);
  }
}

/**
 * The folder `--root` names. It must exist and be a folder: a command
 * never creates the project folder itself, only `.cairn/` inside it. The
 * file-system root is no project (`--root ../../../..` once made `/.cairn`).
 */
function explicitRoot(cwd: string, value: string): string {
  const root = resolve(cwd, value);
  if (dirname(root) === root) {
    throw new CairnError('INVALID_PATH', `The project root ${root} is the file-system root`, {
      hint: 'pass the project folder with --root (check the number of ../); nothing was written',
      details: { path: root, reason: 'filesystem_root' },
    });
  }
  const info = statSync(root, { throwIfNoEntry: false });
  if (!info?.isDirectory()) {
    const reason = info ? 'is not a folder' : 'does not exist';
    throw new CairnError('INVALID_PATH', `The project root ${root} ${reason}`, {
      hint: 'pass an existing project folder with --root (create it first); nothing was written',
      details: { path: root, reason: info ? 'not_directory' : 'missing' },
    });
  }
  return root;
}

/**
 * Runs one command (`argv[0]` names it) and returns its exit code: parses
 * its flags, finds the project, loads the optional packages its settings
 * name, runs it, and prints its output, warnings or error.
 */
export async function runCommand(
  argv: string[],
  io: CliIO,
  commands: readonly CommandSpec[],
  openers: ProjectOpeners,
): Promise<number> {
  // Until the flags parse, any `--json` asks for a JSON error; after, only the flag does
  // (`--category --json` passes "--json" as a value).
  let json = argv.includes('--json');
  const [name, ...rest] = argv;
  try {
    const command = commands.find((c) => c.name === name);
    if (!command) throw usageError(`Unknown command "${name}"`);
    const { values, positionals } = parse(command, rest);
    json = values.json === true;
    if (values.help) {
      io.stdout(`${command.usage}\n\n${command.summary}\n`);
      return EXIT.OK;
    }
    if (
      positionals.length < command.positionals.min ||
      positionals.length > command.positionals.max
    ) {
      throw usageError(`Wrong number of arguments for "${name}"`, command);
    }
    const root =
      typeof values.root !== 'string'
        ? findProjectRoot(io.cwd)
        : command.checksRoot
          ? resolve(io.cwd, values.root)
          : explicitRoot(io.cwd, values.root);
    // A command that checks --root itself (a hook) finds its project, and loads its packages, alone.
    // The settings read here are handed to the first project opened (one read per process).
    let resolvedSettings = command.checksRoot
      ? undefined
      : await loadConfiguredPackages(root, { env: io.env }).catch(() => undefined);
    const handOver = () => {
      const given = resolvedSettings;
      resolvedSettings = undefined;
      return given;
    };
    let cairn: Cairn | undefined;
    let search: MemorySearch | undefined;
    // A link under .cairn/ (a cloned repository can ship one) fails the command with INVALID_PATH.
    const open = () => {
      if (!cairn) assertProjectLayout(root);
      cairn ??= openers.open(root, { env: io.env, resolvedSettings: handOver() });
      return cairn;
    };
    const openSearch = () => {
      if (!search) assertProjectLayout(root);
      search ??= openers.openSearch(root, { env: io.env, resolvedSettings: handOver() });
      return search;
    };
    const output = await command.run({ io, json, root, values, positionals, open, openSearch });
    if (json) printJson(io, output.json);
    else if (output.text) io.stdout(`${output.text}\n`);
    if (!json && output.errorLine) io.stderr(`cairn: ${oneLine(output.errorLine)}\n`);
    // JSON output carries warnings where relevant.
    if (!json && !command.listsWarnings) {
      const warnings = cairn?.warnings ?? search?.warnings ?? [];
      for (const warning of warnings) io.stderr(`cairn: warning: ${warning}\n`);
    }
    return output.exitCode ?? EXIT.OK;
  } catch (thrown) {
    // EACCES, EPERM, EROFS, ENOSPC that escaped untyped: exit 1, not "a bug" (70).
    const error = typedFileSystemError(thrown);
    printError(io, error, json);
    return exitCodeFor(error);
  }
}
