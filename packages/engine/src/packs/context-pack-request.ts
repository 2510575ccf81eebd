import {
  agentIdSchema,
  CairnError,
  lazySchema,
  parseInput,
  sessionKeySchema,
  threadKeySchema,
} from '@cairn/core';
import * as z from 'zod/mini';
import { BEADS_ID } from './beads-issue';
import { PACK_PROFILE_NAMES } from './pack-profiles';
import { PACK_PLANES } from './pack-types';

/** Seed 004 §7: what a caller asks the retrieval gateway for. */
export const contextPackRequestSchema = lazySchema(() =>
  z.object({
    query: z.string().check(z.maxLength(20_000, 'query is at most 20000 characters')),
    agentId: agentIdSchema,
    threadKey: z.optional(threadKeySchema),
    /** The run the pack is for: a run id is its session key (its digest leads the history plane). */
    runRef: z.optional(sessionKeySchema),
    /**
     * Other threads relevant to `threadKey` (an explicit relevance signal,
     * seed 002 §6): their run digests join the thread's. Without it, a pack
     * for a thread reads no other thread's context.
     */
    relatedThreads: z.optional(
      z.array(threadKeySchema).check(z.maxLength(16, 'relatedThreads holds at most 16 threads')),
    ),
    /** A Beads issue id the run is linked to; never an option for `bd` (it starts with a letter). */
    planningRef: z.optional(
      z
        .string()
        .check(
          z.maxLength(256),
          z.regex(BEADS_ID, 'planningRef is a Beads issue id such as bd-a1b2'),
        ),
    ),
    /** Overrides `memory.contextBudgetTokens` for this request. */
    budgetTokens: z.optional(z.number().check(z.int(), z.gte(0), z.lte(1_000_000))),
    /** Only these planes; the others are reported `off` ("not requested"). */
    planes: z.optional(z.array(z.enum(PACK_PLANES))),
    /** The named profile the pack is built under (its planes, unless `planes` says otherwise). */
    profile: z.optional(z.enum(PACK_PROFILE_NAMES)),
  }),
);
export type ContextPackRequest = z.infer<typeof contextPackRequestSchema>;

export function parseContextPackRequest(value: unknown): ContextPackRequest {
  const request = parseInput(contextPackRequestSchema, value, 'context pack request');
  if (request.relatedThreads?.length && !request.threadKey) {
    throw new CairnError('INVALID_INPUT', 'relatedThreads needs threadKey', {
      hint: 'name the thread the related threads are relevant to (threadKey), or leave relatedThreads out',
    });
  }
  return request;
}
