import { sessionKeySchema } from '@cairn/core';
import { z } from 'zod';

/**
 * The payloads the Cairn plugin hands to `deliver`, one per OpenCode hook,
 * as recorded from opencode-ai 1.18.33 (fixtures/session/). Fields Cairn
 * does not read are allowed through untouched (zod objects are not strict).
 */

/** OpenCode's session ids become Cairn session keys: core's rule (contracts/schemas.ts). */
const id = sessionKeySchema;

/** `Session` of @opencode-ai/sdk, the fields Cairn reads. */
const sessionInfo = z.object({
  id,
  directory: z.string().min(1).max(4096),
  parentID: z.optional(id),
  title: z.string().optional(),
});

/** `event` hook, session.created; `session.resumed` is the plugin's own, for a session met first at a prompt. */
export const sessionCreatedSchema = z.object({
  type: z.enum(['session.created', 'session.resumed']),
  properties: z.object({ info: sessionInfo }),
});

const part = z.object({
  type: z.string(),
  text: z.string().optional(),
  synthetic: z.boolean().optional(),
});

const sessionMessage = z.object({
  info: z.object({
    id: z.string(),
    role: z.string(),
    summary: z.unknown().optional(),
  }),
  parts: z.array(part),
});

/**
 * `event` hook, session.idle / session.deleted; `dispose` is the plugin's
 * own, one per open session. `messages`: the session's messages, read by
 * the plugin through the SDK client when it could (the run digest takes the
 * agent's final answer from them).
 */
export const sessionEventSchema = z.object({
  type: z.enum(['session.idle', 'session.deleted', 'dispose']),
  properties: z.object({ sessionID: z.optional(id), info: sessionInfo.optional() }),
  // Messages of an unexpected shape cost the digest its answer, never the session end.
  messages: z.array(sessionMessage).optional().catch(undefined),
});

/** `chat.message` hook: (input, output) as OpenCode passes them. */
export const chatMessageSchema = z.object({
  input: z.object({ sessionID: id }),
  output: z.object({ parts: z.array(part) }),
});

/** `tool.execute.after` hook: (input, output); MCP tools answer with `content`, native ones with `output`. */
export const toolExecuteAfterSchema = z.object({
  input: z.object({
    tool: z.string().min(1).max(200),
    sessionID: id,
    args: z.unknown().optional(),
  }),
  output: z.unknown().optional(),
});

/** `experimental.session.compacting` hook: (input, output). */
export const compactingSchema = z.object({
  input: z.object({ sessionID: id }),
  output: z
    .object({ context: z.array(z.string()).optional(), prompt: z.string().optional() })
    .optional(),
});

/** `event` hook, session.compacted, with the session's messages the plugin read through the SDK client. */
export const sessionCompactedSchema = z.object({
  event: z.object({
    type: z.literal('session.compacted'),
    properties: z.object({ sessionID: id }),
  }),
  messages: z.array(sessionMessage),
});

export type SessionMessage = z.output<typeof sessionMessage>;
export type MessagePart = z.output<typeof part>;
