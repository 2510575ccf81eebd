import type { CliOptionConfig, CommandSpec, SubcommandSpec } from './command';

/**
 * `--help` for every command and subcommand, written from the command
 * table (`CommandSpec`): a command added to the table has its help, its
 * suggestions and its line in the docs' CLI reference without more code.
 */

export const GLOBAL_OPTION_LINES = [
  '  --json         print one JSON object (errors too)',
  '  --root <dir>   the project root (default: the nearest folder with .cairn/ up to the',
  "                 git repository's top folder; `cairn init` creates it there)",
  '  -h, --help     show help (also after a command or subcommand)',
];

/** What follows `--name` in the command's usage (`N`, `<dir>`, `a,b`), or undefined when nothing does. */
export function usagePlaceholder(usage: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`--${escaped}(?:[ =]([^\\s\\])]+))?`).exec(usage);
  const value = match?.[1];
  return value && !value.startsWith('-') && !value.startsWith('[') ? value : undefined;
}

/** How an option reads in help: `--limit N`, `--category <value>`, `--json`. */
export function optionLabel(command: CommandSpec, name: string, option: CliOptionConfig): string {
  const short = option.short ? `-${option.short}, ` : '';
  if (option.type === 'boolean') return `${short}--${name}`;
  const placeholder = usagePlaceholder(command.usage, name) ?? (option.number ? 'N' : '<value>');
  return `${short}--${name} ${placeholder}${option.multiple ? ' (repeatable)' : ''}`;
}

/**
 * The options a command declares (those of `only`, when given), each on a
 * line with its description when it has one.
 */
function optionLines(command: CommandSpec, only?: readonly string[]): string[] {
  const entries = Object.entries(command.options).filter(
    ([name]) => only === undefined || only.includes(name),
  );
  if (entries.length === 0) return [];
  const labels = entries.map(([name, option]) => optionLabel(command, name, option));
  const width = Math.max(...labels.map((label) => label.length));
  return [
    'Options:',
    ...entries.map(([, option], i) => {
      const about = [
        option.description,
        option.number ? `(a ${option.number === 'integer' ? 'whole ' : ''}number)` : '',
      ]
        .filter(Boolean)
        .join(' ');
      return `  ${labels[i]!.padEnd(width)}${about ? `  ${about}` : ''}`.trimEnd();
    }),
    '',
  ];
}

function subcommandLines(command: CommandSpec): string[] {
  const subs = command.subcommands ?? [];
  if (subs.length === 0) return [];
  const width = Math.max(...subs.map((sub) => sub.name.length));
  return [
    'Subcommands:',
    ...subs.map((sub) => `  ${sub.name.padEnd(width)}  ${sub.summary}`),
    '',
    `\`cairn ${command.name} <subcommand> --help\` shows one of them.`,
    '',
  ];
}

const usageBlock = (usage: string) =>
  `Usage: ${usage
    .split('\n')
    .map((line) => line.trim())
    .join('\n       ')}`;

/** The help of one command: usage, summary, details, subcommands, options. */
export function commandHelp(command: CommandSpec): string {
  return [
    usageBlock(command.usage),
    '',
    command.summary,
    '',
    ...(command.details ? [command.details.trim(), ''] : []),
    ...subcommandLines(command),
    ...optionLines(command),
    'Options for every command:',
    ...GLOBAL_OPTION_LINES,
    '',
    'More in docs/CLI.md.',
  ].join('\n');
}

/** The help of one subcommand (`cairn history runs --help`). */
export function subcommandHelp(command: CommandSpec, sub: SubcommandSpec): string {
  return [
    usageBlock(sub.usage),
    '',
    sub.summary,
    '',
    ...optionLines(command, sub.options),
    'Options for every command:',
    ...GLOBAL_OPTION_LINES,
    '',
    `\`cairn ${command.name} --help\` lists the other subcommands; more in docs/CLI.md.`,
  ].join('\n');
}

/** `cairn --help`: every command with its summary. */
export function cliHelp(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: cairn <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options for every command:',
    ...GLOBAL_OPTION_LINES,
    '',
    "`cairn <command> --help` shows a command's options and subcommands.",
    'Exit codes: 0 ok, 1 operation failed, 2 usage or invalid input, 3 invalid config, 70 internal error.',
    'New here? `cairn init`, then docs/GETTING-STARTED.md.',
  ].join('\n');
}
