import { openCairn, openMemorySearch, VERSION } from '@cairn/engine';
import type { CommandSpec } from './command';
import { historyCommand } from './commands/history';
import { createHookCommand } from './commands/hook';
import { initCommand } from './commands/init';
import { insightsCommand } from './commands/insights';
import { installCommand, uninstallCommand } from './commands/install';
import { doctorCommand, reindexCommand } from './commands/maintenance-commands';
import { mcpCommand } from './commands/mcp';
import { packCommand } from './commands/pack';
import { readCommand } from './commands/read';
import { getCommand, listCommand, searchCommand } from './commands/read-commands';
import { reviewCommand } from './commands/review';
import { statusCommand } from './commands/status';
import { trustCommand } from './commands/trust';
import { uiCommand } from './commands/ui';
import { addCommand, removeCommand, replaceCommand } from './commands/unit-commands';
import {
  expandCommand,
  headCommand,
  lifecycleCommand,
  threadsCommand,
} from './commands/working-commands';
import { writeCommand } from './commands/write';
import { EXIT } from './exit-codes';
import { loadHarnessDelivery } from './harnesses';
import type { CliIO } from './io';
import { runCommand } from './run-command';

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
  createHookCommand({ loadDelivery: loadHarnessDelivery }),
  mcpCommand,
  trustCommand,
  historyCommand,
  packCommand,
  reviewCommand,
  insightsCommand,
  uiCommand,
];

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

/** Runs one `cairn` invocation and returns its exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${usage()}\n`);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  return runCommand(argv, io, COMMANDS, { open: openCairn, openSearch: openMemorySearch });
}
