import type { LineageStore } from '../lineage';
import {
  createExtractiveSummarizer,
  EXTRACTIVE_SUMMARIZER_ID,
  harnessSummaryToStructured,
  type StructuredSummary,
  type Summarizer,
  summarizerFromSettings,
} from '../summaries';
import type { HeadStore, SessionRecord } from './head-store';
import type { LifecycleContext } from './lifecycle-context';
import { writeSummaryNode } from './summary-node';

/** After this many failed attempts the extractive summary stays and the retry is dropped. */
export const MAX_SUMMARY_ATTEMPTS = 6;
/** Why a summary was deferred rather than failed: a short hook budget (session end). */
export const DEFERRED_REASON = 'deferred: the session-end hook budget leaves no time for the model';

export interface SummarizeOptions {
  /** The harness's own summary; always preferred over Cairn's. */
  harnessText?: string;
  /** Write the extractive summary now and leave the model summary to the next event. */
  deferModel?: boolean;
}

/** One project's summaries: where nodes go, and the summarizers, built on first use. */
interface SummariesState {
  ctx: LifecycleContext;
  heads: HeadStore;
  store: () => LineageStore;
  choice: ReturnType<typeof summarizerChoice>;
}

/**
 * Summary and compaction nodes. With a model summarizer configured, a
 * summary that fell back to the extractive one (model down, or deferred to
 * keep a hook inside its budget) is recorded as a summary retry, unique by
 * (agent_id, session_key); `retryDue` later writes the model's summary as a
 * new node of the same session (Tier 3 is append-only: the first one stays).
 */
export function createSessionSummaries(
  ctx: LifecycleContext,
  heads: HeadStore,
  store: () => LineageStore,
) {
  const state: SummariesState = { ctx, heads, store, choice: summarizerChoice(ctx) };
  return {
    /** Writes a summary or compaction node and returns its id. */
    summarize: (
      session: SessionRecord,
      kind: 'session_summary' | 'compaction',
      options: SummarizeOptions = {},
    ) => summarize(state, session, kind, options),
    /**
     * Runs at most `limit` due retries of this agent with the configured model
     * summarizer; returns the ids of the nodes written.
     */
    retryDue: (agentId: string, limit = 1) => retryDue(state, agentId, limit),
  };
}

async function summarizeTranscript(
  state: SummariesState,
  session: SessionRecord,
  summarizer: Summarizer,
): Promise<{ summary: StructuredSummary; startAt: string }> {
  const transcript = state
    .store()
    .getTranscript(session.agentId, session.sessionKey, { limit: 2000 });
  const entries = transcript?.entries ?? [];
  const summary = await summarizer.summarize({
    transcript: entries.map((e) => ({
      role: e.role,
      text: e.text,
      ...(e.toolName ? { toolName: e.toolName } : {}),
      at: e.at,
    })),
    threadKey: session.threadKey,
  });
  return { summary, startAt: entries[0]?.at ?? session.startedAt };
}

async function summarize(
  state: SummariesState,
  session: SessionRecord,
  kind: 'session_summary' | 'compaction',
  options: SummarizeOptions,
): Promise<string> {
  const { store, choice } = state;
  if (options.harnessText?.trim()) {
    const startAt = store().getTranscript(session.agentId, session.sessionKey, { limit: 1 })
      ?.entries[0]?.at;
    const summary = harnessSummaryToStructured(options.harnessText);
    return writeSummaryNode(state, session, kind, summary, startAt ?? session.startedAt);
  }
  const deferred = choice.usesModel() && options.deferModel === true;
  const summarizer = deferred ? choice.extractive : choice.configured();
  const { summary, startAt } = await summarizeTranscript(state, session, summarizer);
  const nodeId = writeSummaryNode(state, session, kind, summary, startAt);
  const failure = deferred ? DEFERRED_REASON : summary.warnings?.join('; ');
  if (kind === 'session_summary' && choice.usesModel() && failure) {
    store().recordSummaryFailure({
      agentId: session.agentId,
      sessionKey: session.sessionKey,
      error: failure,
      ...(deferred ? { nextAttemptAt: state.ctx.now() } : {}),
    });
  }
  return nodeId;
}

async function retryDue(state: SummariesState, agentId: string, limit: number): Promise<string[]> {
  const { store, choice } = state;
  if (!choice.usesModel()) return [];
  const written: string[] = [];
  for (const retry of store().dueSummaryRetries(agentId).slice(0, limit)) {
    const session = state.heads.sessions.session(agentId, retry.sessionKey);
    if (!session || retry.attempts >= MAX_SUMMARY_ATTEMPTS) {
      store().clearSummaryRetry(agentId, retry.sessionKey);
      continue;
    }
    const { summary, startAt } = await summarizeTranscript(state, session, choice.configured());
    if (summary.warnings?.length) {
      store().recordSummaryFailure({
        agentId,
        sessionKey: retry.sessionKey,
        error: summary.warnings.join('; '),
      });
      continue;
    }
    written.push(writeSummaryNode(state, session, 'session_summary', summary, startAt));
    store().clearSummaryRetry(agentId, retry.sessionKey);
  }
  return written;
}

export type SessionSummaries = ReturnType<typeof createSessionSummaries>;

/** The configured summarizer, built on first use (a prompt-submit hook never summarizes). */
function summarizerChoice(ctx: LifecycleContext) {
  const { provider, baseUrl, model, apiKeyEnv } = ctx.settings.summarizer;
  let summarizer: Summarizer | undefined;
  const configured = (): Summarizer =>
    (summarizer ??= summarizerFromSettings(
      {
        provider,
        // Empty strings in settings mean "not set".
        ...(apiKeyEnv ? { apiKeyEnv } : {}),
        ...(baseUrl ? { baseUrl } : {}),
        ...(model ? { model } : {}),
      },
      // The env the project was opened with (openCairn's `env`), as the embedder.
      ctx.env ?? process.env,
    ));
  const extractive = createExtractiveSummarizer();
  return { configured, extractive, usesModel: () => configured().id !== EXTRACTIVE_SUMMARIZER_ID };
}
