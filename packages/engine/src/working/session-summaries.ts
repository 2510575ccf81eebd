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
  const { configured, extractive, usesModel } = summarizerChoice(ctx);
  const nodes = { ctx, heads, store };

  async function summarizeTranscript(
    session: SessionRecord,
    summarizer: Summarizer,
  ): Promise<{ summary: StructuredSummary; startAt: string }> {
    const transcript = store().getTranscript(session.agentId, session.sessionKey, { limit: 2000 });
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

  /** Writes a summary or compaction node and returns its id. */
  async function summarize(
    session: SessionRecord,
    kind: 'session_summary' | 'compaction',
    options: SummarizeOptions = {},
  ): Promise<string> {
    if (options.harnessText?.trim()) {
      const startAt = store().getTranscript(session.agentId, session.sessionKey, { limit: 1 })
        ?.entries[0]?.at;
      const summary = harnessSummaryToStructured(options.harnessText);
      return writeSummaryNode(nodes, session, kind, summary, startAt ?? session.startedAt);
    }
    const deferred = usesModel() && options.deferModel === true;
    const { summary, startAt } = await summarizeTranscript(
      session,
      deferred ? extractive : configured(),
    );
    const nodeId = writeSummaryNode(nodes, session, kind, summary, startAt);
    const failure = deferred ? DEFERRED_REASON : summary.warnings?.join('; ');
    if (kind === 'session_summary' && usesModel() && failure) {
      store().recordSummaryFailure({
        agentId: session.agentId,
        sessionKey: session.sessionKey,
        error: failure,
        ...(deferred ? { nextAttemptAt: ctx.now() } : {}),
      });
    }
    return nodeId;
  }

  /**
   * Runs at most `limit` due retries of this agent with the configured model
   * summarizer; returns the ids of the nodes written.
   */
  async function retryDue(agentId: string, limit = 1): Promise<string[]> {
    if (!usesModel()) return [];
    const written: string[] = [];
    for (const retry of store().dueSummaryRetries(agentId).slice(0, limit)) {
      const session = heads.sessions.session(agentId, retry.sessionKey);
      if (!session || retry.attempts >= MAX_SUMMARY_ATTEMPTS) {
        store().clearSummaryRetry(agentId, retry.sessionKey);
        continue;
      }
      const { summary, startAt } = await summarizeTranscript(session, configured());
      if (summary.warnings?.length) {
        store().recordSummaryFailure({
          agentId,
          sessionKey: retry.sessionKey,
          error: summary.warnings.join('; '),
        });
        continue;
      }
      written.push(writeSummaryNode(nodes, session, 'session_summary', summary, startAt));
      store().clearSummaryRetry(agentId, retry.sessionKey);
    }
    return written;
  }

  return { summarize, retryDue };
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
