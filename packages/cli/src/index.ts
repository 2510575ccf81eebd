export { COMMANDS, runCli } from './cli';
export type { CommandSpec } from './command';
export { EXIT, exitCodeFor } from './exit-codes';
export type { CliIO } from './io';
