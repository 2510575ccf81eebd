import type {
  CompactionCompleteInput,
  PreCompactionInput,
  SessionEndInput,
  SessionStartInput,
  ToolUseInput,
  UserPromptSubmitInput,
} from '@cairn/core';
import type { ContextPack } from '../packs';
import type { ProfilePackPreview } from './lifecycle-context';
import * as events from './lifecycle-events';
import { createLifecycleParts } from './lifecycle-parts';
import { previewPack } from './pack-injection';

export type {
  LifecycleContext,
  LifecycleMemory,
  LifecycleResult,
  ProfilePackPreview,
} from './lifecycle-context';

/**
 * The lifecycle API every harness adapter maps onto. Invalid input throws
 * INVALID_INPUT before anything is written; any other failure is logged
 * under .cairn/state/ and answered with an empty result, so memory trouble
 * never blocks or crashes the agent.
 */
export function createLifecycle(ctx: Parameters<typeof createLifecycleParts>[0]) {
  const parts = createLifecycleParts(ctx);
  return {
    sessionStart: (input: SessionStartInput) => events.sessionStart(parts, input),
    userPromptSubmit: (input: UserPromptSubmitInput) => events.userPromptSubmit(parts, input),
    toolUse: (input: ToolUseInput) => events.toolUse(parts, input),
    preCompaction: (input: PreCompactionInput) => events.preCompaction(parts, input),
    compactionComplete: (input: CompactionCompleteInput) => events.compactionComplete(parts, input),
    sessionEnd: (input: SessionEndInput) => events.sessionEnd(parts, input),
    /**
     * The pack the hook of `request.profile` would inject for the session
     * now, byte for byte; nothing is claimed or stored.
     */
    previewPack: (request: ProfilePackPreview): Promise<ContextPack> =>
      previewPack(parts, {
        profile: request.profile,
        session: parts.peekSession(request, request.threadKey),
        ...(request.input === undefined ? {} : { input: request.input }),
      }),
    close: () => parts.close(),
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
