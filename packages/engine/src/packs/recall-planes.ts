import { statSync } from 'node:fs';
import type {
  MemoryQuery,
  MemoryResult,
  MemorySearchFilters,
  MemorySearchResult,
  MemoryTier,
  ReviewState,
} from '@cairn/core';
import { DOCUMENTS_POOL_ID } from '@cairn/index-kit';
import {
  type AnchorCheck,
  cachedAnchorChecks,
  maintenanceDatabasePath,
  readHeadCommit,
} from '../anchors';
import { atxHeadingTitle } from '../text';
import type { PackInput } from './compose-pack';

/**
 * The planes that read through the project's recall: long-term units
 * (each stale one marked) and sections of the project's own documents.
 */

/** One memory search through the project's recall, as `Cairn.search` or `MemorySearch.search` does it. */
export type SearchMemoryFn = (request: {
  query: string;
  limit?: number;
  filters?: MemorySearchFilters;
  /** The recall tiers (units are hot). */
  tiers?: MemoryTier[];
  agentId?: string;
}) => Promise<MemorySearchResult[]>;

export interface RecalledUnit {
  hit: MemorySearchResult;
  review: ReviewState;
}

/** Units recalled per review state: approved ones fill the plane, the rest are receipts. */
const LIMITS: Record<ReviewState, number> = { approved: 12, draft: 4, deprecated: 4 };
const STATES: readonly ReviewState[] = ['approved', 'draft', 'deprecated'];
const ALL = LIMITS.approved + LIMITS.draft + LIMITS.deprecated;

const reviewOf = (hit: MemorySearchResult): ReviewState | undefined =>
  STATES.find((state) => state === hit.review);

type RecallByReview = (review: ReviewState[], limit: number) => Promise<MemorySearchResult[]>;

/** One recall per review state, each hit's state the one its recall asked for. */
async function recallPerState(recall: RecallByReview): Promise<RecalledUnit[]> {
  const found = await Promise.all(
    STATES.map((review) =>
      recall([review], LIMITS[review]).then((hits) => hits.map((hit) => ({ hit, review }))),
    ),
  );
  const seen = new Set<string>();
  return found.flat().filter(({ hit }) => {
    const key = hit.memoryId ?? `${hit.path}:${hit.startLine}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * THE recall of the long-term plane: units (the hot tier) through the
 * project's recall, as the calling agent, each with its review state. One
 * recall over every state: the index ranks each hit the same whatever the
 * review filter, so the approved units among its best are the best
 * approved units. Only when that recall came back full with too few of
 * them does a second, approved-only recall run. Drafts and deprecated
 * units are those ranked among the best (they only fill the receipt).
 */
export async function recallUnits(
  search: SearchMemoryFn,
  query: string,
  agentId?: string,
): Promise<RecalledUnit[]> {
  const recall: RecallByReview = (review, limit) =>
    search({
      query,
      limit,
      filters: { kind: ['UNIT'], review, includeDeprecated: review.includes('deprecated') },
      tiers: ['hot'],
      ...(agentId ? { agentId } : {}),
    });
  const hits = await recall([...STATES], ALL);
  // An index that does not report review states is asked once per state.
  if (hits.some((hit) => !reviewOf(hit))) return recallPerState(recall);
  const taken = new Map<ReviewState, number>();
  const found: RecalledUnit[] = [];
  for (const hit of hits) {
    const review = reviewOf(hit);
    if (!review || (taken.get(review) ?? 0) >= LIMITS[review]) continue;
    taken.set(review, (taken.get(review) ?? 0) + 1);
    found.push({ hit, review });
  }
  if (hits.length === ALL && (taken.get('approved') ?? 0) < LIMITS.approved) {
    const approved = await recall(['approved'], LIMITS.approved);
    return [
      ...approved.map((hit) => ({ hit, review: 'approved' as const })),
      ...found.filter((unit) => unit.review !== 'approved'),
    ];
  }
  return found;
}

/** Long-term candidates: reviewed units are `approved`; drafts and deprecated ones are kept for the receipt. */
export async function longTermCandidates(
  search: SearchMemoryFn,
  query: string,
  agentId?: string,
): Promise<PackInput[]> {
  if (!query.trim()) return [];
  const units = await recallUnits(search, query, agentId);
  return units.map(({ hit, review }) => {
    const id = hit.memoryId ?? `RAW:${hit.path}#L${hit.startLine}-L${hit.endLine}`;
    return {
      id,
      plane: 'long-term' as const,
      text: hit.snippet,
      source: `.cairn/memory/${hit.path}`,
      trustClass: 'approved' as const,
      provenance: { kind: 'unit' as const, id, file: hit.path, line: hit.startLine },
      ...(hit.createdAt ? { recency: hit.createdAt } : {}),
      score: hit.score,
      why: `memory search match (${review}${hit.category ? `, ${hit.category}` : ''})`,
      reviewState: review,
      dedupeKey: hit.snippet.trim().toLowerCase(),
    };
  });
}

/**
 * Staleness shown where the agent reads a unit (docs/PACKS.md "Stale
 * units"): a long-term unit whose cited code changed since it was
 * anchored opens with `Code changed since <commit>:`, one whose code is
 * gone with `Possibly stale (<path> \`<symbol>\` is gone):`; the same
 * words end the item's reason, which the receipt keeps. Nothing is left
 * out for it (deprecated units already are): the agent weighs it.
 *
 * The states come from the anchor-check cache of the current HEAD (anchors/)
 * (`cachedAnchorChecks`: no git process). A pack reads it at most once,
 * and only when the plane has units and `.cairn/state/maintenance.db`
 * exists; a process keeps what it read per project until HEAD or the
 * database changes, so a warm hook server pays a few `stat` calls.
 */

/** What a unit's mark says, by its memory id. */
type Marks = ReadonlyMap<string, string>;

interface CachedMarks {
  key: string;
  marks: Marks;
}

/** Per project root, in this process. */
const cache = new Map<string, CachedMarks>();
/** Projects a long-lived process keeps marks for (the hook server holds several). */
const CACHED_PROJECTS = 32;

const shortCommit = (commit: string) => commit.slice(0, 7);

/** The mark of one check, or undefined when the unit needs none (fresh, moved, unverifiable). */
export function staleMark(check: AnchorCheck): string | undefined {
  const { anchor } = check;
  if (check.state === 'changed') return `Code changed since ${shortCommit(anchor.commit)}`;
  if (check.state !== 'deleted') return undefined;
  const cited = anchor.symbol ? `${anchor.path} \`${anchor.symbol}\`` : anchor.path;
  return `Possibly stale (${cited} is gone)`;
}

/** HEAD and the database's (and its WAL's) size and time: what the cached checks depend on. */
function cacheKey(rootDir: string): string | undefined {
  // The database first: a project no check ever ran in pays one `stat`.
  const db = maintenanceDatabasePath(rootDir);
  const main = statSync(db, { throwIfNoEntry: false });
  if (!main) return undefined;
  const head = readHeadCommit(rootDir);
  if (!head) return undefined;
  const wal = statSync(`${db}-wal`, { throwIfNoEntry: false });
  return [head, main.mtimeMs, main.size, wal?.mtimeMs ?? 0, wal?.size ?? 0].join(' ');
}

function readMarks(rootDir: string): Marks {
  const checks = cachedAnchorChecks(rootDir);
  const marks = new Map<string, string>();
  for (const [memoryId, check] of checks ?? []) {
    const mark = staleMark(check);
    if (mark) marks.set(memoryId, mark);
  }
  return marks;
}

/** The marks of a project's units at its current HEAD; empty when nothing was checked there. */
export function staleMarks(rootDir: string): Marks {
  let key: string | undefined;
  try {
    key = cacheKey(rootDir);
    if (!key) return new Map();
    const hit = cache.get(rootDir);
    if (hit?.key === key) return hit.marks;
    const marks = readMarks(rootDir);
    cache.delete(rootDir);
    if (cache.size >= CACHED_PROJECTS) cache.delete(cache.keys().next().value!);
    cache.set(rootDir, { key, marks });
    return marks;
  } catch {
    // A store that cannot be read (locked, corrupt) marks nothing: the pack fails open.
    return new Map();
  }
}

/** The long-term candidates, each stale unit with its mark on its opening line and in its reason. */
export function markStaleUnits(candidates: readonly PackInput[], rootDir: string): PackInput[] {
  if (!candidates.some((candidate) => candidate.provenance.kind === 'unit')) return [...candidates];
  const marks = staleMarks(rootDir);
  if (marks.size === 0) return [...candidates];
  return candidates.map((candidate) => {
    const mark = marks.get(candidate.id);
    if (!mark) return candidate;
    return { ...candidate, text: `${mark}: ${candidate.text}`, why: `${candidate.why}; ${mark}` };
  });
}

/** One recall through the project's retrieval adapter (`Cairn.recall`, `MemorySearch.recall`). */
export type RecallMemoryFn = (query: MemoryQuery) => Promise<MemoryResult[]>;

/** Sections of the documents pool the plane considers. */
const DOCUMENT_LIMIT = 8;
/** An ATX heading line; its title is trimmed by `atxHeadingTitle` (linear on a line of spaces). */
const HEADING = /^#{1,6}[ \t]+(.*)$/;
/** A setext heading: its text, then a line of `=` or `-` under it. */
const SETEXT = /^(.+)\n(?:=+|-+)\s*(?:\n|$)/;

/**
 * A section's heading and body: the documents pool is indexed by section
 * (index-kit's document-sections.ts), each chunk starting with its
 * heading line (ATX or setext); a chunk before any heading has none.
 */
function splitHeading(text: string): { heading?: string; body: string } {
  const [first = '', ...rest] = text.split('\n');
  const atx = HEADING.exec(first);
  const title = atx ? atxHeadingTitle(atx[1]!) : '';
  if (title) return { heading: title, body: rest.join('\n').trim() };
  const setext = SETEXT.exec(text);
  if (setext) return { heading: setext[1]!.trim(), body: text.slice(setext[0].length).trim() };
  return { body: text.trim() };
}

function documentItem(result: MemoryResult): PackInput {
  const path = String(result.metadata?.path ?? result.uri);
  const startLine = Number(result.metadata?.startLine ?? 1);
  const endLine = Number(result.metadata?.endLine ?? startLine);
  // The whole section as indexed (its size capped there), not the search's snippet.
  const { heading, body } = splitHeading(result.content ?? result.snippet ?? '');
  return {
    id: `DOC:${path}#L${startLine}-L${endLine}`,
    plane: 'documents',
    text: body || heading || '',
    source: path,
    // The repository's own text, not reviewed memory: rendered as a quotation ("project document, quoted").
    trustClass: 'raw',
    // `path#heading` names the section; file:line places it (rendered `document a.md#Setup (a.md:3)`).
    provenance: {
      kind: 'document',
      id: heading ? `${path}#${heading}` : path,
      file: path,
      line: startLine,
    },
    score: result.score ?? 0,
    why: `project document section (${heading ? `${path}, ${heading}` : path})`,
    dedupeKey: `document:${path}#L${startLine}`,
  };
}

/**
 * The documents plane: the project's own documents (the cold `documents`
 * pool: README, AGENTS.md, CLAUDE.md, docs/, ADRs, letter case ignored)
 * recalled for the query, each item a whole section (up to the cap the
 * index cuts at) with its `path#heading` provenance, quoted as a project
 * document. Nothing is parsed here: sections were found when indexed.
 */
export async function documentCandidates(
  recall: RecallMemoryFn,
  query: string,
  agentId: string,
): Promise<PackInput[]> {
  if (!query.trim()) return [];
  const results = await recall({
    agentId,
    query,
    limit: DOCUMENT_LIMIT,
    tiers: ['cold'],
    poolIds: [DOCUMENTS_POOL_ID],
  });
  return results.map(documentItem);
}
