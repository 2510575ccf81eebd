import * as z from 'zod/mini';
import { UNIT_ID_PATTERN } from '../units/unit-types';
import { THREAD_KEY_PATTERN } from '../workspace/validate-path';
import { lazySchema, parseInput } from './schemas';

/*
 * The keys that name an agent, a session, a thread and a unit, defined once:
 * lifecycle payloads, the lineage store, MCP tool inputs and CLI flags all
 * parse them with these schemas, so one value is accepted or refused the
 * same way wherever it enters. The limits are the widest any surface used
 * to accept (lineage: 256; thread heads and the lineage: 120), so every
 * value already stored stays readable. zod/mini, built on first use: hooks
 * start a process per event (see schemas.ts).
 */

/** agentId and sessionKey: 1 to 256 characters, as the lineage store has always accepted. */
export const MAX_KEY_CHARS = 256;
/** Thread keys: `THREAD_KEY_PATTERN`, 1 to 120 characters (a `threads/<key>.md` file name). */
export const MAX_THREAD_KEY_CHARS = 120;

const key = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .check(
      z.minLength(1, `${name} is required`),
      z.maxLength(MAX_KEY_CHARS, `${name} is at most ${MAX_KEY_CHARS} characters`),
    );

export const agentIdSchema = lazySchema(() => key('agentId'));
export const sessionKeySchema = lazySchema(() => key('sessionKey'));

export const threadKeySchema = lazySchema(() =>
  z
    .string({ error: 'threadKey is required' })
    .check(
      z.maxLength(MAX_THREAD_KEY_CHARS, `threadKey is at most ${MAX_THREAD_KEY_CHARS} characters`),
      z.regex(
        THREAD_KEY_PATTERN,
        'threadKey must be lowercase letters, digits, ".", "_" or "-", starting with a letter or digit',
      ),
    ),
);

export const unitIdSchema = lazySchema(() =>
  z.string().check(z.regex(UNIT_ID_PATTERN, 'unit ids look like UNIT:<uuid>')),
);

/** The agentId, or INVALID_INPUT naming `what` (a flag, a field). */
export function checkAgentId(value: unknown, what = 'agentId'): string {
  return parseInput(agentIdSchema, value, what);
}

/** The thread key, or INVALID_INPUT naming `what` (a flag, a field). */
export function checkThreadKey(value: unknown, what = 'threadKey'): string {
  return parseInput(threadKeySchema, value, what);
}
