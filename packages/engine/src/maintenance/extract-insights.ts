import { recurringGotchas } from '../history';
import { clipLine, INSIGHTS_MAX_BYTES, withinBudget } from './maintenance-files';
import type { WorkingSources } from './working-sources';

/**
 * Extractive insights (seed 000's insight extraction, offline): facts a
 * run can state from working memory with the evidence that supports them,
 * never a paraphrase. Each insight names its evidence: unit ids, lineage
 * node ids (`node:…`), runs (`run:<session>`), fix patterns (`FIX-…`).
 */
export interface Insight {
  /** Stable across runs for the same finding (ordering and dedup). */
  key: string;
  topic: 'errors' | 'fixes' | 'outcomes' | 'memory' | 'threads' | 'files';
  text: string;
  evidence: string[];
}

const runRef = (runId: string) => `run:${runId}`;

function errorInsights(sources: WorkingSources): Insight[] {
  return recurringGotchas(sources.digests)
    .sort((a, b) => b.runs.length - a.runs.length)
    .slice(0, 10)
    .map((gotcha) => ({
      key: `error ${gotcha.signature}`,
      topic: 'errors' as const,
      text: `${clipLine(gotcha.normalized, 140)} came back in ${gotcha.runs.length} runs${gotcha.resolvedBy ? `; run ${gotcha.resolvedBy.runId} resolved it` : '; no run resolved it yet'}.`,
      evidence: gotcha.runs.slice(0, 5).map(runRef),
    }));
}

function fixInsights(sources: WorkingSources): Insight[] {
  const insights: Insight[] = [];
  for (const pattern of sources.patterns) {
    const tried = pattern.succeeded + pattern.failed;
    if (pattern.state === 'verified') {
      insights.push({
        key: `fix ${pattern.id}`,
        topic: 'fixes',
        text: `Verified fix for ${clipLine(pattern.normalized, 100)}: worked ${pattern.succeeded} of ${tried} times.`,
        evidence: [pattern.id],
      });
    } else if (pattern.state === 'candidate' && pattern.failed > pattern.succeeded && tried >= 2) {
      insights.push({
        key: `fix-failing ${pattern.id}`,
        topic: 'fixes',
        text: `The candidate fix for ${clipLine(pattern.normalized, 100)} failed ${pattern.failed} of ${tried} times: review or deprecate it.`,
        evidence: [pattern.id],
      });
    }
  }
  return insights.slice(0, 10);
}

function outcomeInsights(sources: WorkingSources): Insight[] {
  if (sources.digests.length === 0) return [];
  const counts = { succeeded: 0, failed: 0, abandoned: 0, unknown: 0 };
  for (const { digest } of sources.digests) counts[digest.outcome] += 1;
  const files = new Map<string, string[]>();
  for (const { digest } of sources.digests) {
    const paths = new Set([
      ...digest.changes.editedFiles,
      ...(digest.changes.diffstat?.paths ?? []),
    ]);
    for (const path of paths) files.set(path, [...(files.get(path) ?? []), digest.runId]);
  }
  const hot = [...files.entries()]
    .filter(([, runs]) => runs.length >= 3)
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 5);
  const failedRuns = sources.digests.filter((d) => d.digest.outcome === 'failed').slice(0, 5);
  return [
    {
      key: 'outcomes',
      topic: 'outcomes',
      text: `Of the last ${sources.digests.length} runs: ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.abandoned} abandoned${counts.unknown ? `, ${counts.unknown} unknown` : ''}.`,
      evidence: failedRuns.map((d) => runRef(d.digest.runId)),
    },
    ...hot.map(([path, runs]) => ({
      key: `file ${path}`,
      topic: 'files' as const,
      text: `\`${clipLine(path, 100)}\` changed in ${runs.length} of the last ${sources.digests.length} runs.`,
      evidence: runs.slice(0, 5).map(runRef),
    })),
  ];
}

function memoryInsights(sources: WorkingSources): Insight[] {
  const approved = sources.units.filter((unit) => unit.review === 'approved');
  const drafts = sources.units.filter((unit) => unit.review === 'draft');
  const used = [...sources.lastInjected.keys()].filter((id) => id.startsWith('UNIT:'));
  const insights: Insight[] = [
    {
      key: 'memory',
      topic: 'memory',
      text: `${sources.units.length} units (${approved.length} approved, ${drafts.length} drafts waiting for review); ${used.length} were injected at least once.`,
      evidence: drafts.slice(0, 5).map((unit) => unit.memoryId),
    },
  ];
  return insights;
}

function threadInsights(sources: WorkingSources): Insight[] {
  return sources.threads
    .filter((thread) => thread.openLoops.length > 0)
    .slice(0, 5)
    .map((thread) => ({
      key: `thread ${thread.agentId} ${thread.threadKey}`,
      topic: 'threads' as const,
      text: `Thread ${thread.threadKey} (${thread.agentId}) has ${thread.openLoops.length} open loop(s): ${clipLine(thread.openLoops[0] ?? '', 100)}`,
      evidence: thread.lineage.slice(0, 3),
    }));
}

export function extractInsights(sources: WorkingSources): Insight[] {
  return [
    ...errorInsights(sources),
    ...fixInsights(sources),
    ...outcomeInsights(sources),
    ...memoryInsights(sources),
    ...threadInsights(sources),
  ];
}

const TOPIC_TITLES: Record<Insight['topic'], string> = {
  errors: 'Recurring errors',
  fixes: 'Fixes',
  outcomes: 'Run outcomes',
  files: 'Files that keep changing',
  memory: 'Memory',
  threads: 'Open threads',
};

/** The insights region: grouped by topic, each line with its evidence, within INSIGHTS_MAX_BYTES. */
export function renderInsights(
  insights: readonly Insight[],
  extra: readonly string[] = [],
): { body: string; dropped: number } {
  const lines = insights.map(
    (insight) =>
      `- [${TOPIC_TITLES[insight.topic]}] ${insight.text}${insight.evidence.length ? ` (evidence: ${insight.evidence.join(', ')})` : ''}`,
  );
  const header =
    '## Insights\n\nExtracted by `cairn insights run` from working memory; see memory-audit.md for each run.\n';
  const { kept, dropped } = withinBudget(
    [...extra, ...lines],
    INSIGHTS_MAX_BYTES - header.length - 64,
  );
  return { body: `${header}\n${kept.join('\n')}\n`, dropped };
}
