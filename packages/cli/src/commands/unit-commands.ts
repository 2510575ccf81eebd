import { refuseRedactedOverwrite } from '@cairn/core';
import type { CommandSpec } from '../command';
import { stringFlag, textArgument } from './text-input';
import { unitOutcome } from './unit-outcome';

export const addCommand: CommandSpec = {
  name: 'add',
  summary: "Add a memory unit to today's daily file (text as arguments or on stdin)",
  usage:
    'cairn add [<text...>] [--category preference|fact|decision|entity|other] [--review draft|approved] [--source S] [--json]',
  options: { category: { type: 'string' }, review: { type: 'string' }, source: { type: 'string' } },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  async run(context) {
    const text = (await textArgument(context)) ?? '';
    const { category, review, source } = context.values;
    const result = await (await context.open()).add({
      text,
      ...(stringFlag(category) ? { category: stringFlag(category) as never } : {}),
      ...(stringFlag(review) ? { review: stringFlag(review) as never } : {}),
      ...(stringFlag(source) ? { source: stringFlag(source) } : {}),
    });
    return unitOutcome(result);
  },
};

export const replaceCommand: CommandSpec = {
  name: 'replace',
  summary: 'Replace the text of a unit, keeping its id and created_at',
  usage: 'cairn replace <UNIT:id> [<text...>] [--json]   (text on stdin when omitted)',
  options: {},
  positionals: { min: 1, max: Number.POSITIVE_INFINITY },
  async run(context) {
    const text = (await textArgument(context, 1)) ?? '';
    const [memoryId] = context.positionals as [string];
    const cairn = await context.open();
    // `cairn get --json` shows a secret as [REDACTED:…]: that placeholder never overwrites it.
    if (text.includes('[REDACTED:')) {
      const stored = await cairn.get(memoryId).catch(() => undefined);
      refuseRedactedOverwrite(memoryId, text, stored);
    }
    return unitOutcome(await cairn.replace(memoryId, text));
  },
};

export const removeCommand: CommandSpec = {
  name: 'remove',
  summary:
    'Remove a unit by id (--at <file>:<line>: the one copy there, of an id in several places)',
  usage: 'cairn remove <UNIT:id> [--at <file>:<line>] [--json]',
  options: { at: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(context) {
    const at = stringFlag(context.values.at);
    return unitOutcome(await (await context.open()).remove(context.positionals[0]!, at));
  },
};
