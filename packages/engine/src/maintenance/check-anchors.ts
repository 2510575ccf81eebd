import type { AnchorCheck, CodeAnchor } from '../anchors';
import { type MemoryRecord, unitContentHash } from '../units';
import { extractCitations, findDefinition, spanAt, spanHash } from './code-citations';
import type { GitObjects } from './git-objects';
import { clipLine } from './maintenance-files';
import { type MaintenanceStore, proposalId } from './maintenance-store';
import type { Proposal, StaleUnit } from './maintenance-types';

/**
 * Staleness anchored in code. A unit that cites code gets anchors (path,
 * symbol when its definition is found, the hash of the normalized span,
 * the commit) when first seen or approved; later checks compare them with
 * HEAD: fresh, moved (the symbol is defined in another file now), changed
 * (the span hashes differently, or the file no longer defines the symbol),
 * deleted (neither the path nor the symbol is there). Nothing is removed:
 * changed units go to the review inbox, deleted ones get a deprecation
 * proposal, moved ones a re-anchor proposal. The checks of a HEAD are
 * cached in maintenance.db, so a second look at the same HEAD costs one read.
 */

async function symbolAnchor(
  git: GitObjects,
  head: string,
  memoryId: string,
  path: string,
  symbol: string,
) {
  const source = await git.show(head, path);
  const line = source === undefined ? undefined : findDefinition(source, symbol);
  if (source === undefined || line === undefined) return undefined;
  return { memoryId, path, symbol, line, spanHash: spanHash(spanAt(source, line)), commit: head };
}

/** The anchors of a unit's citations at `head` (none when it cites nothing found there). */
export async function anchorText(
  git: GitObjects,
  head: string,
  memoryId: string,
  text: string,
): Promise<CodeAnchor[]> {
  const { paths, symbols } = extractCitations(text);
  const files = await git.files(head);
  const anchors: CodeAnchor[] = [];
  const anchoredSymbols = new Set<string>();
  for (const cited of paths) {
    if (!files.has(cited.path)) continue;
    const found = [];
    // A command names its own script or target; a path is tried with every symbol the text names.
    for (const symbol of cited.symbol ? [cited.symbol] : symbols) {
      const anchor = await symbolAnchor(git, head, memoryId, cited.path, symbol);
      if (anchor) {
        found.push(anchor);
        anchoredSymbols.add(symbol);
      }
    }
    if (found.length > 0) {
      anchors.push(...found);
      continue;
    }
    const source = (await git.show(head, cited.path)) ?? '';
    const span = cited.line
      ? source
          .split('\n')
          .slice(cited.line - 1, cited.line + 9)
          .join('\n')
      : source;
    anchors.push({
      memoryId,
      path: cited.path,
      ...(cited.line ? { line: cited.line } : {}),
      spanHash: spanHash(span),
      commit: head,
    });
  }
  // A symbol named without a path: anchored where it is defined, when that is one file.
  for (const symbol of symbols.filter((s) => !anchoredSymbols.has(s))) {
    const defined = [];
    for (const path of (await git.grep(head, symbol)).slice(0, 20)) {
      const anchor = await symbolAnchor(git, head, memoryId, path, symbol);
      if (anchor) defined.push(anchor);
    }
    if (defined.length === 1) anchors.push(defined[0]!);
  }
  return anchors;
}

async function findElsewhere(git: GitObjects, head: string, anchor: CodeAnchor) {
  for (const path of (await git.grep(head, anchor.symbol!)).slice(0, 20)) {
    if (path === anchor.path) continue;
    const source = await git.show(head, path);
    const line = source === undefined ? undefined : findDefinition(source, anchor.symbol!);
    if (line !== undefined) return { path, line };
  }
  return undefined;
}

/** One anchor against `head`. */
export async function checkAnchor(
  git: GitObjects,
  head: string,
  anchor: CodeAnchor,
  at: string,
): Promise<AnchorCheck> {
  const result = (state: AnchorCheck['state'], movedTo?: AnchorCheck['movedTo']): AnchorCheck => ({
    anchor,
    state,
    ...(movedTo ? { movedTo } : {}),
    head,
    checkedAt: at,
  });
  if (anchor.commit === head) return result('fresh');
  const source = await git.show(head, anchor.path);
  if (anchor.symbol) {
    const line = source === undefined ? undefined : findDefinition(source, anchor.symbol);
    if (source !== undefined && line !== undefined) {
      return result(spanHash(spanAt(source, line)) === anchor.spanHash ? 'fresh' : 'changed');
    }
    const moved = await findElsewhere(git, head, anchor);
    if (moved) return result('moved', moved);
    return result(source === undefined ? 'deleted' : 'changed');
  }
  if (source === undefined) return result('deleted');
  const span = anchor.line
    ? source
        .split('\n')
        .slice(anchor.line - 1, anchor.line + 9)
        .join('\n')
    : source;
  return result(spanHash(span) === anchor.spanHash ? 'fresh' : 'changed');
}

/** Anchors the units that cite code and have none yet, then checks every anchor (cached per HEAD). */
export async function checkAllAnchors(
  git: GitObjects,
  store: MaintenanceStore,
  units: readonly MemoryRecord[],
  now: Date,
): Promise<AnchorCheck[]> {
  const head = await git.head();
  if (!head) return [];
  const anchored = store.anchoredUnits();
  const live = units.filter((unit) => unit.kind === 'UNIT' && unit.review !== 'deprecated');
  for (const unit of live) {
    const seen = anchored.get(unit.memoryId);
    if (seen === 'anchored' || seen === head) continue;
    const cited = extractCitations(unit.text);
    if (cited.paths.length === 0 && cited.symbols.length === 0) {
      store.markUnanchored(unit.memoryId, head);
      continue;
    }
    const anchors = await anchorText(git, head, unit.memoryId, unit.text).catch(() => []);
    // Code not found at this HEAD (not committed yet, say): looked at again on the next HEAD.
    if (anchors.length > 0) store.setAnchors(unit.memoryId, anchors);
    else store.markUnanchored(unit.memoryId, head);
  }
  const key = `${head} ${store.anchorsVersion()}`;
  const cached = store.cachedChecks(key);
  if (cached) return cached;
  const at = now.toISOString();
  const alive = new Set(live.map((unit) => unit.memoryId));
  const checks: AnchorCheck[] = [];
  for (const anchor of store.anchors()) {
    if (!alive.has(anchor.memoryId)) continue;
    checks.push(
      await checkAnchor(git, head, anchor, at).catch(() => ({
        anchor,
        state: 'unverifiable' as const,
        head,
        checkedAt: at,
      })),
    );
  }
  store.cacheChecks(key, checks, at);
  return checks;
}

/** The worst state of each unit's anchors, as the review inbox lists them. */
export function staleUnits(
  checks: readonly AnchorCheck[],
  units: readonly MemoryRecord[],
): StaleUnit[] {
  const text = new Map(units.map((unit) => [unit.memoryId, unit.text]));
  const rank = { deleted: 3, changed: 2, moved: 1 } as const;
  const worst = new Map<string, AnchorCheck>();
  for (const check of checks) {
    if (check.state === 'fresh' || check.state === 'unverifiable') continue;
    const seen = worst.get(check.anchor.memoryId);
    if (!seen || rank[check.state] > rank[seen.state as keyof typeof rank])
      worst.set(check.anchor.memoryId, check);
  }
  return [...worst.values()].map((check) => ({
    memoryId: check.anchor.memoryId,
    state: check.state as StaleUnit['state'],
    anchor: {
      path: check.anchor.path,
      ...(check.anchor.symbol ? { symbol: check.anchor.symbol } : {}),
      ...(check.anchor.line ? { line: check.anchor.line } : {}),
      commit: check.anchor.commit,
    },
    ...(check.movedTo ? { movedTo: check.movedTo } : {}),
    text: clipLine(text.get(check.anchor.memoryId) ?? '', 160),
    checkedAt: check.checkedAt,
  }));
}

/** Deleted: propose deprecation; moved: propose re-anchoring. Changed units are listed, not proposed. */
export function stalenessProposals(
  stale: readonly StaleUnit[],
  units: readonly MemoryRecord[],
  checks: readonly AnchorCheck[],
  now: Date,
): Proposal[] {
  const byId = new Map(units.map((unit) => [unit.memoryId, unit]));
  const proposals: Proposal[] = [];
  for (const s of stale) {
    const unit = byId.get(s.memoryId);
    if (!unit?.category || !unit.review || s.state === 'changed') continue;
    const hash = unitContentHash({ category: unit.category, review: unit.review, text: unit.text });
    const cited = s.anchor.symbol ? `${s.anchor.path} \`${s.anchor.symbol}\`` : s.anchor.path;
    const createdAt = now.toISOString();
    if (s.state === 'deleted') {
      proposals.push({
        id: proposalId('deprecation', [s.memoryId], `deleted ${cited}`),
        kind: 'deprecation',
        state: 'open',
        unitIds: [s.memoryId],
        createdAt,
        summary: `Deprecate ${s.memoryId}: the code it cites is gone (${cited})`,
        reason: `${cited} is not in HEAD any more (anchored at ${s.anchor.commit.slice(0, 10)}); possibly stale`,
        before: `${s.memoryId} (${unit.review}): ${unit.text}`,
        after: `${s.memoryId} (deprecated): ${unit.text}`,
        evidence: [s.memoryId, `commit:${s.anchor.commit.slice(0, 12)}`],
        patch: {
          preconditions: { [s.memoryId]: hash },
          ops: [{ op: 'set-review', memoryId: s.memoryId, review: 'deprecated' }],
        },
      });
      continue;
    }
    const head = checks.find((c) => c.anchor.memoryId === s.memoryId && c.state === 'moved');
    if (!head?.movedTo || !head.anchor.symbol) continue;
    proposals.push({
      id: proposalId('reanchor', [s.memoryId], `${head.movedTo.path} ${head.head}`),
      kind: 'reanchor',
      state: 'open',
      unitIds: [s.memoryId],
      createdAt,
      summary: `Re-anchor ${s.memoryId}: \`${head.anchor.symbol}\` moved to ${head.movedTo.path}`,
      reason: `${cited} is now defined in ${head.movedTo.path}:${head.movedTo.line}; the text may name the old path`,
      before: `${head.anchor.path}`,
      after: `${head.movedTo.path}:${head.movedTo.line}`,
      evidence: [s.memoryId, `commit:${head.head.slice(0, 12)}`],
      patch: { preconditions: { [s.memoryId]: hash }, ops: [] },
      anchors: [
        { ...head.anchor, path: head.movedTo.path, line: head.movedTo.line, commit: head.head },
      ],
    });
  }
  return proposals;
}
