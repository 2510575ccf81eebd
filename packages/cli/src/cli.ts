import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CairnError } from '@cairn/core';
import {
  type Cairn,
  findProjectRoot,
  loadConfiguredPackages,
  openCairn,
  VERSION,
} from '@cairn/engine';
import type { CommandSpec, OptionSpec } from './command';
import { hookCommand } from './commands/hook';
import { initCommand } from './commands/init';
import { installCommand, uninstallCommand } from './commands/install';
import { doctorCommand, reindexCommand } from './commands/maintenance-commands';
import { mcpCommand } from './commands/mcp';
import { readCommand } from './commands/read';
import { getCommand, listCommand, searchCommand } from './commands/read-commands';
import { statusCommand } from './commands/status';
import { addCommand, removeCommand, replaceCommand } from './commands/unit-commands';
import {
  expandCommand,
  headCommand,
  lifecycleCommand,
  threadsCommand,
} from './commands/working-commands';
import { writeCommand } from './commands/write';
import { EXIT, exitCodeFor } from './exit-codes';
import { type CliIO, printError, printJson } from './io';

export const COMMANDS: readonly CommandSpec[] = [
  initCommand,
  statusCommand,
  readCommand,
  writeCommand,
  addCommand,
  replaceCommand,
  removeCommand,
  getCommand,
  listCommand,
  searchCommand,
  reindexCommand,
  doctorCommand,
  expandCommand,
  threadsCommand,
  headCommand,
  lifecycleCommand,
  installCommand,
  uninstallCommand,
  hookCommand,
  mcpCommand,
];

const GLOBAL_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  root: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: cairn <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options for every command:',
    '  --json         print one JSON object (errors too)',
    '  --root <dir>   the project root (default: nearest folder with .cairn/, else the cwd)',
    '  -h, --help     show help',
    '',
    'Exit codes: 0 ok, 1 operation failed, 2 usage or invalid input, 3 invalid config, 70 internal error.',
  ].join('\n');
}

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

/** Runs one `cairn` invocation and returns its exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const json = argv.includes('--json');
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${usage()}\n`);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  try {
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) throw usageError(`Unknown command "${name}"`);
    const { values, positionals } = parse(command, rest);
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
      typeof values.root === 'string' ? resolve(io.cwd, values.root) : findProjectRoot(io.cwd);
    await loadConfiguredPackages(root, { env: io.env }).catch(() => undefined);
    let cairn: Cairn | undefined;
    const open = () => {
      cairn ??= openCairn(root, { env: io.env });
      return cairn;
    };
    const output = await command.run({ io, json, root, values, positionals, open });
    if (json) printJson(io, output.json);
    else if (output.text) io.stdout(`${output.text}\n`);
    if (!json && output.errorLine) io.stderr(`cairn: ${output.errorLine}\n`);
    // status lists warnings itself; JSON output carries them where relevant.
    if (!json && command !== statusCommand) {
      for (const warning of cairn?.warnings ?? []) io.stderr(`cairn: warning: ${warning}\n`);
    }
    return output.exitCode ?? EXIT.OK;
  } catch (error) {
    printError(io, error, json);
    return exitCodeFor(error);
  }
}
