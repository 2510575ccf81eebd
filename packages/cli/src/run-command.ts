import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CAIRN_DIR, CairnError, typedFileSystemError } from '@cairn/core';
import type {
  Cairn,
  LifecycleHost,
  MemorySearch,
  OpenCairnOptions,
  ProjectLocation,
} from '@cairn/engine';
import { assertProjectLayout, locateProject, notInitializedError } from '@cairn/engine';
import type { CommandContext, CommandOutput, CommandSpec, OptionSpec } from './command';
import { commandHelp, subcommandHelp, usagePlaceholder } from './command-help';
import { EXIT, exitCodeFor } from './exit-codes';
import { type CliIO, oneLine, printError, printJson } from './io';
import { didYouMean } from './suggest';

/** How a runner opens a project: the whole engine through its host, or its search alone. */
export interface ProjectOpeners {
  /** Opens the whole engine and says when the command is done with it (the search bundle has none). */
  host?: LifecycleHost;
  openSearch(root: string, options: OpenCairnOptions): Promise<MemorySearch>;
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

/** Where the command's project is: `--root` as given, else found from the current folder. */
function locate(command: CommandSpec, cwd: string, rootFlag: unknown): ProjectLocation {
  if (typeof rootFlag !== 'string') return locateProject(cwd);
  const root = command.checksRoot ? resolve(cwd, rootFlag) : explicitRoot(cwd, rootFlag);
  const initialized = statSync(join(root, CAIRN_DIR), { throwIfNoEntry: false })?.isDirectory();
  return { root, initialized: initialized === true, start: root };
}

function hostOf(openers: ProjectOpeners): LifecycleHost {
  if (openers.host) return openers.host;
  throw new CairnError('INTERNAL', 'This bundle cannot open the whole engine', {
    hint: 'report this as a bug in @cairn/cli',
  });
}

/** The command is done with the project it opened: its host closes it or keeps it. */
async function release(openers: ProjectOpeners, cairn: Promise<Cairn> | undefined) {
  const opened = await cairn?.catch(() => undefined);
  if (opened) openers.host?.release(opened);
}

/**
 * The command line of one command, parsed with node's parseArgs against the
 * command's own options, plus what parseArgs does not do: a suggestion for
 * an unknown option or subcommand, and numbers checked as numbers.
 */

export const GLOBAL_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  root: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export function usageError(message: string, command?: CommandSpec): CairnError {
  return new CairnError('INVALID_INPUT', message, {
    hint: command
      ? `usage: ${command.usage} (\`cairn ${command.name} --help\` says more)`
      : 'run `cairn --help` for the commands',
  });
}

/** parseArgs' "Unknown option '--lmit'…", with the option the user likely meant. */
function unknownOption(error: Error, command: CommandSpec, options: OptionSpec): CairnError {
  const name = /Unknown option '(-{1,2}[^']*)'/.exec(error.message)?.[1] ?? '';
  const bare = name.replace(/^-+/, '').split('=')[0]!;
  const hint = didYouMean(bare, Object.keys(options), '--');
  return usageError(`Unknown option ${name} for "${command.name}"${hint}`, command);
}

export function parseCommandLine(command: CommandSpec, args: string[]) {
  const options = { ...GLOBAL_OPTIONS, ...command.options };
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw unknownOption(error as Error, command, options);
    }
    throw usageError((error as Error).message, command);
  }
}

/** The kind of number an option takes: declared, or `--name N` in the usage. */
function numberKind(command: CommandSpec, name: string): 'integer' | 'number' | undefined {
  const option = command.options[name];
  if (option?.number) return option.number;
  return option?.type === 'string' && usagePlaceholder(command.usage, name) === 'N'
    ? 'integer'
    : undefined;
}

/**
 * Refuses a numeric option whose value is not a number (`--limit abc`,
 * `--budget 1.5` where a whole number is due) before the command runs;
 * ranges stay the command's to check.
 */
export function checkNumbers(command: CommandSpec, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    const kind = numberKind(command, name);
    if (!kind || value === undefined) continue;
    for (const text of Array.isArray(value) ? value : [value]) {
      const number = typeof text === 'string' && text.trim() !== '' ? Number(text) : Number.NaN;
      const whole = kind === 'integer' ? Number.isSafeInteger(number) : Number.isFinite(number);
      if (whole) continue;
      throw new CairnError(
        'INVALID_INPUT',
        `--${name} must be a ${kind === 'integer' ? 'whole ' : ''}number, not ${JSON.stringify(String(text)).slice(0, 40)}`,
        {
          hint: `for example --${name} 10 (\`cairn ${command.name} --help\`); nothing was changed`,
          details: { option: name, value: String(text).slice(0, 200) },
        },
      );
    }
  }
}

/** A first positional that names none of the command's subcommands is refused, with the likely one. */
export function checkSubcommand(command: CommandSpec, positionals: string[]): void {
  const subs = command.subcommands;
  const [first] = positionals;
  if (!subs?.length || first === undefined || subs.some((sub) => sub.name === first)) return;
  const names = subs.map((sub) => sub.name);
  throw new CairnError(
    'INVALID_INPUT',
    `Unknown ${command.name} subcommand "${first.slice(0, 60)}"${didYouMean(first, names)}`,
    {
      hint: `use one of ${names.join(', ')} (\`cairn ${command.name} --help\`)`,
    },
  );
}

/** `--help` after a command or one of its subcommands. */
function help(command: CommandSpec, positionals: string[]): string {
  const sub = command.subcommands?.find((s) => s.name === positionals[0]);
  return sub ? subcommandHelp(command, sub) : commandHelp(command);
}

/** The named command; an unknown name is a usage error with a suggestion. */
function findCommand(commands: readonly CommandSpec[], name: string | undefined): CommandSpec {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const names = commands.map((c) => c.name);
  throw usageError(
    `Unknown command "${String(name).slice(0, 60)}"${didYouMean(String(name), names)}`,
  );
}

/** Subcommand, argument count and numeric flags, checked before anything is opened. */
function checkArguments(
  command: CommandSpec,
  values: Record<string, unknown>,
  positionals: string[],
): void {
  checkSubcommand(command, positionals);
  if (
    positionals.length < command.positionals.min ||
    positionals.length > command.positionals.max
  ) {
    throw usageError(`Wrong number of arguments for "${command.name}"`, command);
  }
  checkNumbers(command, values);
}

/** What a command opened, so the runner can print its warnings. */
interface Opened {
  cairn?: Promise<Cairn>;
  search?: Promise<MemorySearch>;
}

/**
 * The command's `open` and `openSearch`: each opens once, and only an
 * initialized project (unless the command opens uninitialized ones); the
 * whole engine through the runner's lifecycle host.
 */
function projectOpeners(
  command: CommandSpec,
  location: ProjectLocation,
  io: CliIO,
  openers: ProjectOpeners,
): Pick<CommandContext, 'open' | 'openSearch'> & { opened: Opened } {
  const { root } = location;
  const opened: Opened = {};
  // A link under .cairn/ (a cloned repository can ship one) fails the command with INVALID_PATH.
  // Outside a project, a command that opens it says so and creates nothing (init creates it).
  const checkProject = () => {
    if (!location.initialized && !command.opensUninitialized) throw notInitializedError(location);
    assertProjectLayout(root);
  };
  const open = () => {
    if (!opened.cairn) checkProject();
    opened.cairn ??= hostOf(openers).open(root, io.env);
    return opened.cairn;
  };
  const openSearch = () => {
    if (!opened.search) checkProject();
    opened.search ??= openers.openSearch(root, { env: io.env });
    return opened.search;
  };
  return { open, openSearch, opened };
}

/** Prints what the command handed back, and on stderr the warnings of what it opened. */
async function printOutput(
  io: CliIO,
  command: CommandSpec,
  output: CommandOutput,
  json: boolean,
  opened: Opened,
): Promise<number> {
  if (output.printed) return output.exitCode ?? EXIT.OK;
  if (json) printJson(io, output.json);
  else if (output.text) io.stdout(`${output.text}\n`);
  if (!json && output.errorLine) io.stderr(`cairn: ${oneLine(output.errorLine)}\n`);
  // JSON output carries warnings where relevant.
  if (!json && !command.listsWarnings) {
    const pending: Promise<{ readonly warnings: string[] }> | undefined =
      opened.cairn ?? opened.search;
    const done = await pending?.catch(() => undefined);
    for (const warning of done?.warnings ?? []) io.stderr(`cairn: warning: ${warning}\n`);
  }
  return output.exitCode ?? EXIT.OK;
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
    const command = findCommand(commands, name);
    const { values, positionals } = parseCommandLine(command, rest);
    json = values.json === true;
    if (values.help) {
      io.stdout(`${help(command, positionals)}\n`);
      return EXIT.OK;
    }
    checkArguments(command, values, positionals);
    const location = locate(command, io.cwd, values.root);
    const { open, openSearch, opened } = projectOpeners(command, location, io, openers);
    const { root } = location;
    const { host } = openers;
    const context = { io, json, root, location, values, positionals, open, openSearch, host };
    const output = await command.run(context).finally(() => release(openers, opened.cairn));
    return await printOutput(io, command, output, json, opened);
  } catch (thrown) {
    // EACCES, EPERM, EROFS, ENOSPC that escaped untyped: exit 1, not "a bug" (70).
    const error = typedFileSystemError(thrown);
    printError(io, error, json);
    return exitCodeFor(error);
  }
}
