import { parseArgs } from 'node:util';
import { CairnError } from '@cairn/core';
import type { CommandSpec, OptionSpec } from './command';
import { usagePlaceholder } from './command-help';
import { didYouMean } from './suggest';

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
