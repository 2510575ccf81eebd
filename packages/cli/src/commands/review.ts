import { CairnError } from '@cairn/core';
import type { CommandSpec } from '../command';
import { unitOutcome } from './unit-outcome';

const ACTIONS = { approve: 'approved', deprecate: 'deprecated' } as const;

/**
 * `cairn review`: the draft units waiting for a human (promotions from task
 * history, drafts an agent added), and `approve <id>` / `deprecate <id>`,
 * which change the review state in place: the unit keeps its id.
 */
export const reviewCommand: CommandSpec = {
  name: 'review',
  summary: 'List draft units; `review approve <id>` or `review deprecate <id>` decides one',
  usage:
    'cairn review [--json] | cairn review approve <UNIT:id> | cairn review deprecate <UNIT:id>',
  options: {},
  positionals: { min: 0, max: 2 },
  async run({ open, positionals }) {
    const [action, memoryId] = positionals;
    if (action === undefined) {
      const drafts = await open().list({ review: 'draft' });
      const text = drafts
        .map(
          (unit) =>
            `${unit.memoryId}  ${unit.category ?? ''}  ${unit.path}:${unit.startLine}\n  ${unit.text}${unit.source ? `\n  source: ${unit.source}` : ''}`,
        )
        .join('\n');
      return { json: { ok: true, drafts }, text: text || '(no drafts to review)' };
    }
    if (!(action in ACTIONS) || !memoryId) {
      throw new CairnError('INVALID_INPUT', `Unknown review command "${positionals.join(' ')}"`, {
        hint: 'use `cairn review`, `cairn review approve <UNIT:id>` or `cairn review deprecate <UNIT:id>`',
      });
    }
    const review = ACTIONS[action as keyof typeof ACTIONS];
    return unitOutcome(await open().setReview(memoryId, review));
  },
};
