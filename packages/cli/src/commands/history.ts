import { CairnError } from '@cairn/core';
import { errorSignature } from '@cairn/engine';
import type { CommandSpec } from '../command';
import {
  DIGEST_OPTIONS,
  DIGEST_USAGE,
  isDigestSubcommand,
  runDigestSubcommand,
} from './history-digests';
import { stringFlag } from './text-input';

/** What `cairn history signature` reads from stdin at most: 1 MiB (an error, not a whole log). */
export const SIGNATURE_STDIN_MAX_BYTES = 1024 * 1024;

const SUBCOMMANDS = ['signature'] as const;

/**
 * `cairn history signature`: the error signature of the text on stdin, as
 * JSON (with or without --json), for scripts and tests. Run digests and
 * fix patterns come next under the same command.
 */
export const historyCommand: CommandSpec = {
  name: 'history',
  summary: 'Task history; `history signature` prints the error signature of stdin as JSON',
  usage: `cairn history signature [--tool <name>] [--command <cmd>] < error.txt | ${DIGEST_USAGE}`,
  options: { tool: { type: 'string' }, command: { type: 'string' }, ...DIGEST_OPTIONS },
  positionals: { min: 1, max: 2 },
  async run(context) {
    const { io, positionals, values } = context;
    const sub = positionals[0];
    if (isDigestSubcommand(sub)) return runDigestSubcommand(context);
    if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number])) {
      throw new CairnError('INVALID_INPUT', `Unknown history command "${sub}"`, {
        hint: `use one of ${SUBCOMMANDS.join(', ')}, show, runs`,
      });
    }
    const text = await io.readStdin({ maxBytes: SIGNATURE_STDIN_MAX_BYTES });
    if (!text?.trim()) {
      throw new CairnError('INVALID_INPUT', 'No error text on standard input', {
        hint: 'pipe the failing output in: `pnpm test 2>&1 | cairn history signature --command "pnpm test"`',
      });
    }
    const tool = stringFlag(values.tool);
    const command = stringFlag(values.command);
    const result = errorSignature(text, {
      ...(tool ? { tool } : {}),
      ...(command ? { command } : {}),
    });
    const json = {
      signature: result.signature,
      family: result.family,
      normalized: result.normalized,
    };
    return { json, text: JSON.stringify(json) };
  },
};
