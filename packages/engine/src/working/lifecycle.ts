import {
  type CompactionCompleteInput,
  compactionCompleteSchema,
  type PreCompactionInput,
  parseLifecycleInput,
  preCompactionSchema,
  type SessionEndInput,
  type SessionStartInput,
  sessionEndSchema,
  sessionStartSchema,
  type ToolUseInput,
  toolUseSchema,
  type UserPromptSubmitInput,
  userPromptSubmitSchema,
} from '@cairn/core';
import { toolEventText } from '../lineage';
import {
  type ContextPack,
  estimateCounter,
  knownFixCandidate,
  type PackInput,
  type PackProfileName,
} from '../packs';
import type { InjectionEvent, InjectionReceipt } from './head-sessions';
import type { SessionRecord } from './head-store';
import { EMPTY_RESULT, type LifecycleResult, type ProfilePackPreview } from './lifecycle-context';
import { createLifecycleParts, type LifecycleParts } from './lifecycle-parts';
import { buildProfilePack } from './profile-pack';

export type {
  LifecycleContext,
  LifecycleMemory,
  LifecycleResult,
  ProfilePackPreview,
} from './lifecycle-context';

/**
 * The lifecycle events (docs/HOOKS.md), each over the shared parts. An
 * event that injects only chooses its pack profile and the profile's
 * inputs (docs/PACKS.md "Profiles"); the pack is built by the one pipeline.
 */

export async function sessionStart(
  p: LifecycleParts,
  input: SessionStartInput,
): Promise<LifecycleResult> {
  const args = parseLifecycleInput(sessionStartSchema, input, 'session-start');
  return p.guarded('session-start', args, async () => {
    let session = p.sessionFor(args, args);
    // A harness that restarts the context after compacting (Claude Code sends
    // SessionStart with source "compact" before PostCompact) gets everything again.
    const compacted = args.source === 'compact';
    if (compacted) {
      p.heads().sessions.bumpEpoch(session.agentId, session.sessionKey);
      session = p.sessionFor(args);
    }
    const { text } = await injectPack(p, {
      event: 'session-start',
      profile: compacted ? 'after-compaction' : 'session-start',
      session,
    });
    // A model summary that failed or was deferred at a session end is due
    // now; its failure must not cost this session its injection.
    await p
      .parts()
      .summaries.retryDue(session.agentId)
      .then((ids) => p.parts().digests.afterSummaryRetries(session.agentId, ids))
      .catch((error: unknown) => p.logFailure('session-start', args, error));
    return { inject: text };
  });
}

export async function userPromptSubmit(
  p: LifecycleParts,
  input: UserPromptSubmitInput,
): Promise<LifecycleResult> {
  const args = parseLifecycleInput(userPromptSubmitSchema, input, 'user-prompt-submit');
  return p.guarded('user-prompt-submit', args, async () => {
    const session = p.sessionFor(args);
    p.parts().capture(session, 'user', args.prompt);
    const { text } = await injectPack(p, {
      event: 'user-prompt-submit',
      profile: 'prompt-submit',
      session,
      input: args.prompt,
    });
    return { inject: text };
  });
}

export async function toolUse(p: LifecycleParts, input: ToolUseInput): Promise<LifecycleResult> {
  const args = parseLifecycleInput(toolUseSchema, input, 'tool-use');
  return p.guarded('tool-use', args, async () => {
    const session = p.sessionFor(args);
    const text = toolEventText(args.input, args.output);
    const entry = p.parts().capture(session, 'tool', text, args.toolName);
    // Task history: a failure is recorded, and answered with a known fix if there is one.
    // Its trouble is logged and costs the event nothing else: the capture above stands.
    let inject = '';
    try {
      const fix = await p.parts().history.record(session, entry, args);
      if (fix) {
        const injected = await injectPack(p, {
          event: 'tool-use',
          profile: 'post-tool',
          session,
          input: fix.pattern.normalized,
          history: [knownFixCandidate(fix.pattern, fix.sharedBy)],
        });
        inject = injected.text;
      }
    } catch (error) {
      p.logFailure('tool-use', args, error);
    }
    return inject ? { inject } : EMPTY_RESULT;
  });
}

export async function preCompaction(
  p: LifecycleParts,
  input: PreCompactionInput,
): Promise<LifecycleResult> {
  const args = parseLifecycleInput(preCompactionSchema, input, 'pre-compaction');
  return p.guarded('pre-compaction', args, async () => {
    const session = p.sessionFor(args);
    const instructions = args.customInstructions ? `: ${args.customInstructions}` : '';
    p.parts().capture(
      session,
      'system',
      `pre-compaction (${args.trigger ?? 'unknown'})${instructions}`,
    );
    // Into the compaction prompt, not the context: the heads only, nothing claimed.
    const { text } = await injectPack(p, {
      event: 'pre-compaction',
      profile: 'pre-compaction',
      session,
    });
    return { inject: text };
  });
}

export async function compactionComplete(
  p: LifecycleParts,
  input: CompactionCompleteInput,
): Promise<LifecycleResult> {
  const args = parseLifecycleInput(compactionCompleteSchema, input, 'compaction-complete');
  return p.guarded('compaction-complete', args, async () => {
    const session = p.sessionFor(args);
    const nodeId = await p.parts().summaries.summarize(session, 'compaction', {
      ...(args.summary ? { harnessText: args.summary } : {}),
    });
    p.heads().sessions.bumpEpoch(session.agentId, session.sessionKey);
    await p.parts().headRefresh.refresh(session);
    return { ...EMPTY_RESULT, nodeId };
  });
}

export async function sessionEnd(
  p: LifecycleParts,
  input: SessionEndInput,
): Promise<LifecycleResult> {
  const args = parseLifecycleInput(sessionEndSchema, input, 'session-end');
  return p.guarded('session-end', args, async () => {
    const session = p.sessionFor(args);
    p.parts().finalAnswer(session, args.finalAnswer);
    const nodeId = await p.parts().summaries.summarize(session, 'session_summary', {
      deferModel: args.deferSummary === true,
    });
    // The run digest (docs/HISTORY.md): its failure must not cost the session its summary.
    await p
      .parts()
      .digests.atSessionEnd(session, nodeId)
      .catch((error: unknown) => p.logFailure('session-end', args, error));
    await p.parts().history.endSession(session);
    await p.parts().headRefresh.refresh(session);
    return { ...EMPTY_RESULT, nodeId };
  });
}

export interface PackInjectionRequest {
  event: InjectionEvent;
  profile: PackProfileName;
  session: SessionRecord;
  /** The prompt (prompt-submit), the failure's error text (post-tool). */
  input?: string;
  /** Candidates the event brings itself (post-tool: the fix of the failure). */
  history?: PackInput[];
}

export interface PackInjection {
  /** What the hook injects: '' when nothing is new. */
  text: string;
  receipt: InjectionReceipt;
}

/**
 * One injection: the profile's pack for the session (profile-pack.ts),
 * claimed as shown for the session epoch when the profile claims, and its
 * receipt stored, in one write, and none when nothing is injected. The
 * receipt's pack is the pack the text was rendered from; its id is the one
 * the text names.
 */
export async function injectPack(
  p: LifecycleParts,
  request: PackInjectionRequest,
): Promise<PackInjection> {
  const { session } = request;
  const { pack, profile } = await buildProfilePack(p, request);
  const receipt: InjectionReceipt = {
    receiptId: pack.receiptId ?? '',
    event: request.event,
    profile: profile.name,
    agentId: session.agentId,
    sessionKey: session.sessionKey,
    threadKey: session.threadKey,
    epoch: session.epoch,
    at: p.ctx.now().toISOString(),
    tokens: pack.text ? estimateCounter.count(pack.text) : 0,
    budgetTokens: pack.budget.total,
    pack,
  };
  if (pack.text) {
    const store = p.heads();
    store.transaction(() => {
      if (profile.claim)
        store.sessions.claimInjections(
          session,
          pack.items.map((item) => item.id),
        );
      store.receipts.record(receipt);
    });
  }
  return { text: pack.text, receipt };
}

/**
 * What `injectPack` would inject for the same state, without claiming or
 * storing anything: `cairn pack --profile` prints it.
 */
export async function previewPack(
  p: LifecycleParts,
  request: Omit<PackInjectionRequest, 'event'>,
): Promise<ContextPack> {
  return (await buildProfilePack(p, request)).pack;
}

/**
 * The lifecycle API every harness adapter maps onto. Invalid input throws
 * INVALID_INPUT before anything is written; any other failure is logged
 * under .cairn/state/ and answered with an empty result, so memory trouble
 * never blocks or crashes the agent.
 */
export function createLifecycle(ctx: Parameters<typeof createLifecycleParts>[0]) {
  const parts = createLifecycleParts(ctx);
  return {
    sessionStart: (input: SessionStartInput) => sessionStart(parts, input),
    userPromptSubmit: (input: UserPromptSubmitInput) => userPromptSubmit(parts, input),
    toolUse: (input: ToolUseInput) => toolUse(parts, input),
    preCompaction: (input: PreCompactionInput) => preCompaction(parts, input),
    compactionComplete: (input: CompactionCompleteInput) => compactionComplete(parts, input),
    sessionEnd: (input: SessionEndInput) => sessionEnd(parts, input),
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
