import { CairnError, type CairnSettings, type Embedder } from '@cairn/core';
import type { MemoryApi } from '../memory-api';
import { createDistiller, type Distiller } from './distill';
import { currentHeadRegion } from './head-render';
import { HeadStore, type SessionRecord } from './head-store';
import { composeInjection } from './injection';
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
} from './lifecycle-inputs';
import { toolEventText } from './tool-event-text';
import { logLifecycleFailure } from './lifecycle-log';
import { defaultThreadKey } from './thread-key';
import { renderThreadHead } from './thread-state';

export interface LifecycleContext {
  rootDir: string;
  settings: CairnSettings;
  memory: MemoryApi;
  now: () => Date;
  /** The configured embedder, if any (transcript recall ranks by meaning with it). */
  embedder?: () => Embedder | undefined;
  /** Where the summarizer reads its API key (`apiKeyEnv`); defaults to process.env. */
  env?: Record<string, string | undefined>;
}

/** What an event hands back to the harness; `failed` is set when it failed open. */
export interface LifecycleResult {
  /** Text to inject into the model's context; empty when there is nothing new. */
  inject: string;
  /** The temporal node written, if any. */
  nodeId?: string;
  /** Set when an internal failure was swallowed (see `cairn doctor`). */
  failed?: { code: string; message: string };
}

const EMPTY: LifecycleResult = { inject: '' };

/**
 * The lifecycle API every harness adapter maps onto. Invalid input throws
 * INVALID_INPUT before anything is written; any other failure is logged
 * under .cairn/state/ and answered with an empty result, so memory trouble
 * never blocks or crashes the agent.
 */
export function createLifecycle(ctx: LifecycleContext) {
  let store: HeadStore | undefined;
  let distiller: Distiller | undefined;
  const heads = () => (store ??= new HeadStore(ctx.rootDir));
  const distill = () => (distiller ??= createDistiller(ctx, heads()));

  async function guarded(
    event: string,
    ids: { agentId: string; sessionKey: string },
    run: () => Promise<LifecycleResult>,
  ): Promise<LifecycleResult> {
    try {
      await distill().settlePending();
      return await run();
    } catch (error) {
      return { ...EMPTY, failed: logFailure(event, ids, error) };
    }
  }

  function logFailure(
    event: string,
    ids: { agentId: string; sessionKey: string },
    error: unknown,
  ): { code: string; message: string } {
    const code = CairnError.isInstance(error) ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    logLifecycleFailure(ctx.rootDir, {
      at: ctx.now().toISOString(),
      event,
      agentId: ids.agentId,
      sessionKey: ids.sessionKey,
      code,
      message,
    });
    return { code, message };
  }

  function sessionFor(
    agentId: string,
    sessionKey: string,
    start?: { harness?: string; cwd?: string; threadKey?: string },
  ): SessionRecord {
    const existing = heads().session(agentId, sessionKey);
    if (existing) return existing;
    return heads().startSession({
      agentId,
      sessionKey,
      threadKey: start?.threadKey ?? defaultThreadKey(start?.cwd ?? ctx.rootDir),
      harness: start?.harness ?? null,
      cwd: start?.cwd ?? null,
      startedAt: ctx.now().toISOString(),
    });
  }

  async function sessionStart(input: SessionStartInput): Promise<LifecycleResult> {
    const args = parseLifecycleInput(sessionStartSchema, input, 'session-start');
    return guarded('session-start', args, async () => {
      const session = sessionFor(args.agentId, args.sessionKey, args);
      // A harness that restarts the context after compacting (Claude Code sends
      // SessionStart with source "compact" before PostCompact) gets everything again.
      if (args.source === 'compact') heads().bumpEpoch(session.agentId, session.sessionKey);
      const head = currentHeadRegion((await ctx.memory.readHead()).content) ?? '';
      const thread = heads().getThread(session.agentId, session.threadKey);
      const query = [thread?.status, thread?.nextAction, ...(thread?.openLoops ?? [])]
        .filter(Boolean)
        .join(' ');
      const units = await distill().relevantUnits(session, query);
      const inject = composeInjection(
        [
          {
            title: '## Project memory (head of .cairn/memory/MEMORY.md)',
            lines: head ? head.split('\n') : [],
          },
          {
            title: `## This thread: ${session.threadKey}`,
            lines: thread ? renderThreadHead(thread).split('\n').slice(2) : [],
          },
          { title: '## Relevant memories', lines: units },
        ],
        ctx.settings.limits.injectTokens,
      );
      // A model summary that failed or was deferred at a session end is due
      // now; its failure must not cost this session its injection.
      await distill()
        .retryDueSummaries(session.agentId)
        .catch((error: unknown) => logFailure('session-start', args, error));
      return { inject };
    });
  }

  async function userPromptSubmit(input: UserPromptSubmitInput): Promise<LifecycleResult> {
    const args = parseLifecycleInput(userPromptSubmitSchema, input, 'user-prompt-submit');
    return guarded('user-prompt-submit', args, async () => {
      const session = sessionFor(args.agentId, args.sessionKey);
      distill().record(session, 'user', args.prompt);
      const lines = await distill().recall(session, args.prompt);
      return {
        inject: composeInjection(
          [{ title: '## Relevant memory (Cairn)', lines }],
          ctx.settings.limits.injectTokens,
        ),
      };
    });
  }

  async function toolUse(input: ToolUseInput): Promise<LifecycleResult> {
    const args = parseLifecycleInput(toolUseSchema, input, 'tool-use');
    return guarded('tool-use', args, async () => {
      const session = sessionFor(args.agentId, args.sessionKey);
      const text = toolEventText(args.input, args.output);
      distill().record(session, 'tool', text, args.toolName);
      return EMPTY;
    });
  }

  async function preCompaction(input: PreCompactionInput): Promise<LifecycleResult> {
    const args = parseLifecycleInput(preCompactionSchema, input, 'pre-compaction');
    return guarded('pre-compaction', args, async () => {
      const session = sessionFor(args.agentId, args.sessionKey);
      distill().record(
        session,
        'system',
        `pre-compaction (${args.trigger ?? 'unknown'})${args.customInstructions ? `: ${args.customInstructions}` : ''}`,
      );
      const head = currentHeadRegion((await ctx.memory.readHead()).content) ?? '';
      const thread = heads().getThread(session.agentId, session.threadKey);
      const lines = [
        ...(head ? head.split('\n') : []),
        ...(thread ? renderThreadHead(thread).split('\n') : []),
      ];
      return {
        inject: composeInjection(
          [{ title: '## Keep across compaction (Cairn)', lines }],
          ctx.settings.limits.injectTokens,
        ),
      };
    });
  }

  async function compactionComplete(input: CompactionCompleteInput): Promise<LifecycleResult> {
    const args = parseLifecycleInput(compactionCompleteSchema, input, 'compaction-complete');
    return guarded('compaction-complete', args, async () => {
      const session = sessionFor(args.agentId, args.sessionKey);
      const nodeId = await distill().summarize(session, 'compaction', {
        ...(args.summary ? { harnessText: args.summary } : {}),
      });
      heads().bumpEpoch(session.agentId, session.sessionKey);
      await distill().refresh(session);
      return { ...EMPTY, nodeId };
    });
  }

  async function sessionEnd(input: SessionEndInput): Promise<LifecycleResult> {
    const args = parseLifecycleInput(sessionEndSchema, input, 'session-end');
    return guarded('session-end', args, async () => {
      const session = sessionFor(args.agentId, args.sessionKey);
      const nodeId = await distill().summarize(session, 'session_summary', {
        deferModel: args.deferSummary === true,
      });
      await distill().refresh(session);
      return { ...EMPTY, nodeId };
    });
  }

  return {
    sessionStart,
    userPromptSubmit,
    toolUse,
    preCompaction,
    compactionComplete,
    sessionEnd,
    close() {
      distiller?.close();
      store?.close();
    },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
