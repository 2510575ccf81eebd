import type { ParseArgsConfig } from 'node:util';

type ParseArgsOptionConfig = NonNullable<ParseArgsConfig['options']>[string];

import type { Cairn, LifecycleHost, MemorySearch, ProjectLocation } from '@cairn/engine';
import type { CliIO } from './io';

/** One option, as node's parseArgs takes it, plus what the runner checks and `--help` shows. */
export interface CliOptionConfig extends ParseArgsOptionConfig {
  /**
   * The value must be a number (`integer`: a whole one): the runner refuses
   * `--limit abc` with "--limit must be a number" before the command runs.
   * An option the usage shows as `--name N` is checked as an integer too.
   */
  number?: 'integer' | 'number';
  /** One line for `--help`. */
  description?: string;
}

export type OptionSpec = Record<string, CliOptionConfig>;

/** A subcommand (`cairn history runs`): listed by `--help`, with help of its own. */
export interface SubcommandSpec {
  name: string;
  usage: string;
  summary: string;
  /** The command's options this one takes, for its `--help` (every one when absent). */
  options?: readonly string[];
}

export interface CommandContext {
  io: CliIO;
  json: boolean;
  /** The project root (from --root, or the nearest folder holding .cairn/; see locateProject). */
  root: string;
  /** How the root was found: whether it holds .cairn/ and the git work tree it is in. */
  location: ProjectLocation;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /**
   * Opens the project's memory (once per command; the runner lets its host
   * close or keep it when the command is done); INVALID_CONFIG on bad settings.
   */
  open: () => Promise<Cairn>;
  /** Opens only the project's search (what `cairn search` needs), with the same settings. */
  openSearch: () => Promise<MemorySearch>;
  /** What opens projects in this process (a hook finds and opens its own); none in the search bundle. */
  host?: LifecycleHost;
}

/** What a command hands back: the JSON object for --json and the text otherwise. */
export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
  /** The command wrote its output itself (a server's status): the runner prints nothing. */
  printed?: boolean;
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
  /** More about it for `--help`: paragraphs, examples. */
  details?: string;
  /**
   * Its subcommands: the first positional, when given, must name one (an
   * unknown one is refused with a suggestion), and `cairn <name> <sub>
   * --help` prints that one's usage.
   */
  subcommands?: readonly SubcommandSpec[];
  /** How many positionals it takes. */
  positionals: { min: number; max: number };
  /** It prints the project's warnings itself, so the runner does not repeat them on stderr. */
  listsWarnings?: boolean;
  /**
   * It may open a project that has no `.cairn/` yet (init, install, status,
   * doctor, mcp). Every other command that opens the project there fails
   * with NOT_FOUND "not initialized: run `cairn init`" and creates nothing.
   */
  opensUninitialized?: boolean;
  /** It checks `--root` itself (a hook never fails the agent, even for a missing root). */
  checksRoot?: boolean;
  run(context: CommandContext): Promise<CommandOutput>;
}
