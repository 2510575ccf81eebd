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
import { knownFixCandidate } from '../packs';
import { EMPTY_RESULT, type LifecycleResult } from './lifecycle-context';
import type { LifecycleParts } from './lifecycle-parts';
import { injectPack } from './pack-injection';

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
