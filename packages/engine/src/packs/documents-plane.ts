import type { MemoryQuery, MemoryResult } from '@cairn/core';
import { DOCUMENTS_POOL_ID } from '@cairn/index-kit';
import { atxHeadingTitle } from '../text';
import type { PackInput } from './compose-pack';

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
