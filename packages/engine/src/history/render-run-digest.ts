import { withoutListLabel } from '../summaries';
import type { RunDigest } from './run-digest-types';

const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');
const short = (sha: string) => sha.slice(0, 12);

function changesSection(digest: RunDigest): string[] {
  const { commits, diffstat, editedFiles, gitNote } = digest.changes;
  const lines: string[] = [];
  for (const commit of commits) lines.push(`- commit ${short(commit.sha)} ${commit.subject}`);
  if (diffstat) {
    lines.push(
      `- diffstat ${diffstat.from === 'empty-tree' ? 'empty tree' : short(diffstat.from)}..${short(diffstat.to)}: ${diffstat.files} files, +${diffstat.insertions} -${diffstat.deletions}`,
    );
  }
  if (editedFiles.length) lines.push(`- edited: ${editedFiles.map((f) => `\`${f}\``).join(', ')}`);
  if (gitNote) lines.push(`- git: ${gitNote}`);
  return lines;
}

function gotchaLine(gotcha: RunDigest['gotchas'][number]): string {
  const times = gotcha.count > 1 ? ` (${gotcha.count}×)` : '';
  const end =
    gotcha.status === 'resolved'
      ? `resolved by ${gotcha.resolvedBy ?? 'a later success'}`
      : 'still failing';
  return `${gotcha.normalized}${times}; signature ${gotcha.signature}, first at ${gotcha.eventId}; ${end}`;
}

/** The digest as markdown: `cairn history show`, the lineage node's text and the pack. */
export function renderRunDigest(digest: RunDigest): string {
  const sections = [
    `# Run ${digest.runId} (${digest.outcome})`,
    `Agent ${digest.agentId}, thread ${digest.threadKey}${digest.harness ? `, ${digest.harness}` : ''}; ${digest.startedAt} → ${digest.endedAt}`,
    `## Intent\n${digest.intent}`,
    `## Outcome\n${digest.outcome}: ${digest.outcomeReason}`,
  ];
  const changes = changesSection(digest);
  if (changes.length) sections.push(`## Key changes\n${changes.join('\n')}`);
  if (digest.decisions.length) sections.push(`## Decisions\n${bullets(digest.decisions)}`);
  if (digest.gotchas.length) {
    sections.push(`## Gotchas\n${bullets(digest.gotchas.map(gotchaLine))}`);
  }
  if (digest.nextSteps.length) sections.push(`## Next steps\n${bullets(digest.nextSteps)}`);
  const { evidence } = digest;
  const refs = [
    `session ${evidence.sessionKey}`,
    evidence.transcriptId !== undefined
      ? `transcript ${evidence.transcriptId} (${evidence.entries} entries)`
      : '',
    evidence.summaryNodeId ? `summary ${evidence.summaryNodeId}` : '',
    evidence.commits.length ? `commits ${evidence.commits.map(short).join(', ')}` : '',
    evidence.toolEventIds.length ? `tool events ${evidence.toolEventIds.join(', ')}` : '',
  ].filter(Boolean);
  sections.push(`## Evidence\n${bullets(refs)}\n\nNarrative: ${digest.narrativeSource}.`);
  return sections.join('\n\n');
}

/** Gotchas a pack's digest item names, at most. */
const BRIEF_GOTCHAS = 3;

/**
 * The error texts of the gotchas the brief names, in its order: tool
 * output, which a pack quotes under the digest, never in its words.
 */
export function digestGotchaQuotes(digest: RunDigest): { from: string; text: string }[] {
  return digest.gotchas.slice(0, BRIEF_GOTCHAS).map((gotcha, index) => ({
    from: `error text of gotcha ${index + 1}, tool event ${gotcha.eventId}`,
    text: gotcha.normalized,
  }));
}

/**
 * A few lines for a context pack: intent, outcome, changes, gotchas and
 * next steps, without the evidence list (the item's provenance has it).
 * A gotcha is named by its family, state and signature; its error text
 * is for `digestGotchaQuotes`.
 */
export function renderRunDigestBrief(digest: RunDigest): string {
  const lines = [`Run ${digest.runId} (${digest.endedAt.slice(0, 10)}): ${digest.intent}`];
  lines.push(`Outcome: ${digest.outcome} (${digest.outcomeReason})`);
  const files = digest.changes.diffstat?.paths ?? digest.changes.editedFiles;
  if (digest.changes.commits.length || files.length) {
    const commits = digest.changes.commits.map((c) => c.subject).join('; ');
    lines.push(`Changes: ${[commits, files.slice(0, 8).join(', ')].filter(Boolean).join(' | ')}`);
  }
  digest.gotchas.slice(0, BRIEF_GOTCHAS).forEach((gotcha, index) => {
    lines.push(
      `Gotcha ${index + 1}: a ${gotcha.family} error, ${gotcha.status} (signature ${gotcha.signature}; its text quoted below)`,
    );
  });
  for (const step of digest.decisions.slice(0, 3))
    lines.push(`Decision: ${withoutListLabel('decisions', step)}`);
  for (const step of digest.nextSteps.slice(0, 3))
    lines.push(`Next: ${withoutListLabel('nextSteps', step)}`);
  return lines.join('\n');
}
