import { agentIdSchema, parseInput, sessionKeySchema } from '@cairn/core';
import { z } from 'zod';

/**
 * The payloads the Cairn plugin hands to `deliver`: OpenClaw's typed hook
 * `event` and its `ctx`, as the plugin received them, plus, for
 * after_compaction, the summary the plugin read from the session store
 * (the event itself carries none).
 */
/** OpenClaw's session ids become Cairn session keys: core's rule (contracts/schemas.ts). */
const id = sessionKeySchema;
const optionalId = z.optional(sessionKeySchema);

const agentContext = z.object({
  agentId: z.optional(agentIdSchema),
  sessionKey: optionalId,
  sessionId: optionalId,
  runId: optionalId,
  workspaceDir: z.string().max(4096).optional(),
});

const sessionContext = z.object({
  agentId: z.optional(agentIdSchema),
  sessionId: id,
  sessionKey: optionalId,
});

export const openclawPayloadSchemas = {
  session_start: z.object({
    event: z.object({ sessionId: id, sessionKey: optionalId, resumedFrom: optionalId }),
    ctx: sessionContext,
  }),
  before_prompt_build: z.object({
    event: z.object({
      prompt: z.string().max(200_000),
      currentUserMessage: z.string().max(200_000).optional(),
    }),
    ctx: agentContext,
  }),
  after_tool_call: z.object({
    event: z.object({
      toolName: z.string().min(1).max(200),
      params: z.record(z.string(), z.unknown()).optional(),
      result: z.unknown().optional(),
      error: z.string().optional(),
    }),
    ctx: agentContext.extend({ toolName: z.string().max(200).optional() }),
  }),
  before_compaction: z.object({
    event: z.object({ messageCount: z.number().int().nonnegative() }),
    ctx: agentContext,
  }),
  after_compaction: z.object({
    event: z.object({
      compactedCount: z.number().int().nonnegative(),
      sessionFile: z.string().optional(),
    }),
    ctx: agentContext,
    compactionSummary: z.string().max(200_000).optional(),
  }),
  session_end: z.object({
    event: z.object({ sessionId: id, reason: z.string().max(200).optional() }),
    ctx: sessionContext,
  }),
  agent_end: z.object({
    event: z.object({
      success: z.boolean().optional(),
      error: z.string().max(20_000).optional(),
      /** The run's messages (with conversation access): the digest's final answer. */
      messages: z.array(z.unknown()).optional().catch(undefined),
    }),
    ctx: agentContext,
  }),
} as const;

export type OpenclawHook = keyof typeof openclawPayloadSchemas;
export type OpenclawPayload<H extends OpenclawHook> = z.output<(typeof openclawPayloadSchemas)[H]>;

export const OPENCLAW_HOOKS = Object.keys(openclawPayloadSchemas) as OpenclawHook[];

export function isOpenclawHook(name: string): name is OpenclawHook {
  return Object.hasOwn(openclawPayloadSchemas, name);
}

export function parseOpenclawPayload<H extends OpenclawHook>(
  hook: H,
  payload: unknown,
): OpenclawPayload<H> {
  const schema: z.ZodType = openclawPayloadSchemas[hook];
  return parseInput(schema, payload, `OpenClaw ${hook} payload`) as OpenclawPayload<H>;
}
