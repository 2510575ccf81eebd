import { openLifecycleHost, openMemorySearch, VERSION } from '@cairn/engine';
import type { CommandSpec } from './command';
import { cliHelp } from './command-help';
import { exportCommand, importCommand } from './commands/backup';
import { expandCommand } from './commands/expand';
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
import { headCommand, lifecycleCommand, threadsCommand } from './commands/working-commands';
import { writeCommand } from './commands/write';
import { EXIT } from './exit-codes';
import { loadHarnessDelivery } from './harnesses';
import { hookServerCommandSpec } from './hook-server/hook-server-command';
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
  exportCommand,
  importCommand,
  packCommand,
  reviewCommand,
  insightsCommand,
  uiCommand,
  hookServerCommandSpec,
];

/** Runs one `cairn` invocation and returns its exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, topic] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    // `cairn help <command>` is `cairn <command> --help`.
    if (name === 'help' && topic) return runCli([topic, '--help'], io);
    io.stdout(`${cliHelp(COMMANDS)}\n`);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${VERSION}\n`);
    return EXIT.OK;
  }
  // One command per process: what it opened is closed when it is done, watches and backends included.
  const host = openLifecycleHost({ keep: 'event' });
  try {
    return await runCommand(argv, io, COMMANDS, { host, openSearch: openMemorySearch });
  } finally {
    await host.close();
  }
}
