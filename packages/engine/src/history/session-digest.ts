import { CairnError } from '@cairn/core';
import type { LineageStore, TranscriptEntry } from '../lineage';
import { createExtractiveSummarizer, harnessSummaryToStructured } from '../summaries';
import type { RunDigestInput } from './build-run-digest';
import { namespaceOf } from './history-database';
import { type PromotionMemory, type PromotionResult, promoteRecurringFromRun } from './promote';
import { latestRunDigest, listRunDigests, recordRunDigest } from './run-digest-store';
import { digestNamespace, type RunDigest } from './run-digest-types';
import { createGitReader, findGit } from './safe-git';

/** The session a digest is written for (the head store's session record fits). */
export interface DigestSession {
  agentId: string;
  sessionKey: string;
  threadKey: string;
  harness: string | null;
  cwd: string | null;
  startedAt: string;
}

export interface SessionDigestContext {
  rootDir: string;
  now: () => Date;
  /** Where git is looked up (PATH); default process.env. */
  env?: Record<string, string | undefined>;
  store: () => LineageStore;
  /** The memory namespace the digests are recorded in (`memory.namespace`; default `default`). */
  namespace?: string;
  /** The project's memory: recurring gotchas are promoted to draft units in it. */
  memory?: PromotionMemory;
  /**
   * The decisions and next steps the summarizer gave for a summary node
   * (the head store keeps them per node); the node's text is parsed when
   * this is absent or knows nothing of the node.
   */
  factsOf?: (
    agentId: string,
    threadKey: string,
    nodeId: string,
  ) => { decisions: string[]; nextSteps: string[] } | undefined;
}

/** Transcript entries read per digest: the first prompts and the latest events. */
const WINDOW = 2000;

function readEntries(store: LineageStore, session: DigestSession) {
  const first = store.getTranscript(session.agentId, session.sessionKey, { limit: WINDOW });
  if (!first) return { entries: [] as TranscriptEntry[], total: 0, transcriptId: undefined };
  if (first.totalEntries <= WINDOW) {
    return { entries: first.entries, total: first.totalEntries, transcriptId: first.transcriptId };
  }
  const tail = store.getTranscript(session.agentId, session.sessionKey, {
    fromSeq: first.totalEntries - WINDOW + 1,
    limit: WINDOW,
  });
  const prompts = first.entries.filter((entry) => entry.role === 'user').slice(0, 3);
  const seqs = new Set(tail?.entries.map((entry) => entry.seq));
  const head = prompts.filter((entry) => !seqs.has(entry.seq));
  return {
    entries: [...head, ...(tail?.entries ?? [])],
    total: first.totalEntries,
    transcriptId: first.transcriptId,
  };
}

/** Decisions and next steps: from the session's summary node, else extracted here. */
async function narrativeOf(
  ctx: SessionDigestContext,
  store: LineageStore,
  session: DigestSession,
  entries: readonly TranscriptEntry[],
  summaryNodeId: string | undefined,
): Promise<RunDigestInput['narrative']> {
  const node = summaryNodeId
    ? store.getNode(session.agentId, summaryNodeId)
    : store
        .listNodes({
          agentId: session.agentId,
          threadKey: session.threadKey,
          kinds: ['session_summary'],
          order: 'desc',
          limit: 50,
        })
        .find((candidate) => candidate.sessionKey === session.sessionKey);
  if (node) {
    const summary =
      ctx.factsOf?.(session.agentId, session.threadKey, node.id) ??
      harnessSummaryToStructured(node.text, node.source);
    return {
      decisions: summary.decisions,
      nextSteps: summary.nextSteps,
      source: node.source,
      nodeId: node.id,
    };
  }
  const summary = await createExtractiveSummarizer().summarize({
    transcript: entries.map((e) => ({
      role: e.role,
      text: e.text,
      ...(e.toolName ? { toolName: e.toolName } : {}),
    })),
  });
  return { decisions: summary.decisions, nextSteps: summary.nextSteps, source: summary.source };
}

/** Commits and diffstat of the session's time window; a note instead when git cannot say. */
export async function gitChanges(
  ctx: Pick<SessionDigestContext, 'rootDir' | 'env'>,
  cwd: string,
  from: Date,
  to: Date,
): Promise<{ git?: RunDigestInput['git']; gitNote?: string }> {
  const bin = await findGit(ctx.env ?? process.env, ctx.rootDir);
  if (!bin) return { gitNote: 'git not found on PATH: changes come from edit tools only' };
  const git = createGitReader(bin, cwd, ctx.env ?? process.env);
  try {
    const commits = await git.commitsBetween(new Date(from.getTime() - 1000), to);
    if (commits.length === 0) return { git: { commits: [] } };
    const last = commits.at(-1)!;
    const stat = await git.diffStat(commits[0]!.parent ?? 'empty-tree', last.sha);
    const diffstat: RunDigest['changes']['diffstat'] = {
      from: stat.from,
      to: stat.to,
      files: stat.files.length,
      insertions: stat.insertions,
      deletions: stat.deletions,
      paths: stat.files.slice(0, 50).map((file) => file.path),
    };
    return {
      git: { commits: commits.map(({ sha, subject, at }) => ({ sha, subject, at })), diffstat },
    };
  } catch (error) {
    return { gitNote: error instanceof Error ? error.message.slice(0, 200) : String(error) };
  }
}

/**
 * Digests one session and stores it (idempotent by run id, see
 * recordRunDigest). `summaryNodeId` is the session summary just written,
 * whose decisions and next steps the digest takes.
 */
export async function digestSession(
  ctx: SessionDigestContext,
  session: DigestSession,
  summaryNodeId?: string,
  /** When the run ended; default now (a later version keeps the first one's end). */
  endedAtRaw?: string,
): Promise<{ nodeId: string; written: boolean; digest: RunDigest }> {
  const store = ctx.store();
  const { entries, total, transcriptId } = readEntries(store, session);
  const endedAt = endedAtRaw ?? ctx.now().toISOString();
  const startedAt = entries[0]?.at ?? session.startedAt;
  const narrative = await narrativeOf(ctx, store, session, entries, summaryNodeId);
  const changes = await gitChanges(
    ctx,
    session.cwd ?? ctx.rootDir,
    new Date(startedAt),
    new Date(endedAt),
  );
  // The digest's failure signatures load here, at a session end, not with every event.
  const { buildRunDigest } = await import('./build-run-digest');
  const digest = buildRunDigest({
    agentId: session.agentId,
    runId: session.sessionKey,
    threadKey: session.threadKey,
    ...(session.harness ? { harness: session.harness } : {}),
    ...(session.cwd ? { cwd: session.cwd } : {}),
    namespace: namespaceOf(ctx),
    ...(transcriptId !== undefined ? { transcriptId } : {}),
    entries,
    entryCount: total,
    startedAt,
    endedAt,
    narrative,
    ...changes,
  });
  return { ...recordRunDigest(store, digest), digest };
}

/**
 * The lifecycle's two calls: a digest at session end, and a new version of
 * a run's digest when a model summary deferred at its session end arrives
 * at a later event (the summary retry at session start).
 */
export function createSessionDigests(
  ctx: SessionDigestContext,
  sessionOf: (agentId: string, sessionKey: string) => DigestSession | undefined,
) {
  return {
    async atSessionEnd(session: DigestSession, summaryNodeId?: string) {
      const result = await digestSession(ctx, session, summaryNodeId);
      let promoted: PromotionResult[] = [];
      if (ctx.memory && result.written && result.digest.gotchas.length > 0) {
        // Only runs of the same namespace count as the gotcha's earlier meetings.
        const namespace = namespaceOf(ctx);
        const digests = listRunDigests(ctx.store(), { agentId: session.agentId, limit: 50 }).filter(
          (entry) => digestNamespace(entry.digest) === namespace,
        );
        const run = {
          nodeId: result.nodeId,
          createdAt: result.digest.endedAt,
          digest: result.digest,
        };
        // A read-only backend keeps the digest and promotes nothing.
        promoted = await promoteRecurringFromRun(ctx.memory, run, digests).catch((error) => {
          if (CairnError.isInstance(error) && error.code === 'READ_ONLY') return [];
          throw error;
        });
      }
      return { ...result, promoted };
    },
    async afterSummaryRetries(agentId: string, summaryNodeIds: readonly string[]) {
      const written: string[] = [];
      for (const nodeId of summaryNodeIds) {
        const node = ctx.store().getNode(agentId, nodeId);
        const session = node.sessionKey ? sessionOf(agentId, node.sessionKey) : undefined;
        if (!session) continue;
        // The run ended at its session end, not now: commits made since are not its own.
        const ended = latestRunDigest(ctx.store(), agentId, session.sessionKey)?.digest.endedAt;
        const result = await digestSession(ctx, session, nodeId, ended);
        if (result.written) written.push(result.nodeId);
      }
      return written;
    },
  };
}
