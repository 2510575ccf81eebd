import { importPackage } from './workspace-packages';

/** The parts of the CLI's command table (`CommandSpec` in packages/cli) the reference shows. */
interface OptionEntry {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  description?: string;
  number?: 'integer' | 'number';
}
interface CommandEntry {
  name: string;
  summary: string;
  usage: string;
  details?: string;
  options: Record<string, OptionEntry>;
  subcommands?: readonly { name: string; usage: string; summary: string }[];
}

type OptionLabel = (command: CommandEntry, name: string, option: OptionEntry) => string;

const escapeCell = (text: string) => text.replaceAll('|', '\\|');

function optionRows(command: CommandEntry, label: OptionLabel): string[] {
  const entries = Object.entries(command.options);
  if (entries.length === 0) return [];
  return [
    '',
    '| Option | What it does |',
    '| --- | --- |',
    ...entries.map(([name, option]) => {
      const kind = option.number ? ` (a ${option.number === 'integer' ? 'whole ' : ''}number)` : '';
      return `| \`${escapeCell(label(command, name, option))}\` | ${escapeCell(option.description ?? '')}${kind} |`;
    }),
  ];
}

function commandSection(command: CommandEntry, label: OptionLabel): string {
  const subs = command.subcommands ?? [];
  return [
    `### cairn ${command.name}`,
    '',
    escapeCell(command.summary),
    '',
    '```',
    command.usage,
    '```',
    ...(command.details ? ['', command.details.replaceAll('\n', ' ')] : []),
    ...(subs.length
      ? ['', ...subs.map((sub) => `- \`${sub.usage}\`: ${escapeCell(sub.summary)}`)]
      : []),
    ...optionRows(command, label),
  ].join('\n');
}

/**
 * The CLI reference: one section per command of the CLI's own command
 * table, the same one its `--help` is written from.
 */
export async function cliReference(): Promise<string> {
  const cli = await importPackage('@cairn/cli');
  const commands = cli.COMMANDS as readonly CommandEntry[];
  const label = cli.optionLabel as OptionLabel;
  const list = commands.map(
    (c) => `- [\`cairn ${c.name}\`](#cairn-${c.name}): ${escapeCell(c.summary)}`,
  );
  return [
    ...list,
    '',
    ...commands
      .map((c) => commandSection(c, label))
      .join('\n\n')
      .split('\n'),
  ].join('\n');
}
