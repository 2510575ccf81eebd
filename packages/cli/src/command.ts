import type { ParseArgsConfig } from 'node:util';
import type { Cairn, MemorySearch } from '@cairn/engine';
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
  /** Opens only the project's search (what `cairn search` needs), with the same settings. */
  openSearch: () => MemorySearch;
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
  /** It prints the project's warnings itself, so the runner does not repeat them on stderr. */
  listsWarnings?: boolean;
  /** It checks `--root` itself (a hook never fails the agent, even for a missing root). */
  checksRoot?: boolean;
  run(context: CommandContext): Promise<CommandOutput>;
}
