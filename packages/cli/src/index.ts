export { COMMANDS, runCli } from './cli';
export type { CommandSpec } from './command';
export { commandHelp, optionLabel } from './command-help';
export { EXIT, exitCodeFor } from './exit-codes';
export type { CliIO } from './io';
