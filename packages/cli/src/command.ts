import type { ParseArgsConfig } from 'node:util';
import type { Cairn } from '@cairn/engine';
import type { CliIO } from './io';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  io: CliIO;
  json: boolean;
  /** The project root (from --root, or the nearest folder holding .cairn/). */
  root: string;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** Opens the project's memory; throws INVALID_CONFIG on bad settings. */
  open: () => Cairn;
}

/** What a command hands back: the JSON object for --json and the text otherwise. */
export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
  /** Non-zero when the command reports a failure as a result (e.g. a failed add). */
  exitCode?: number;
  /** One line for stderr, with the exit code above. */
  errorLine?: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  options: OptionSpec;
  /** How many positionals it takes. */
  positionals: { min: number; max: number };
  run(context: CommandContext): Promise<CommandOutput>;
}
