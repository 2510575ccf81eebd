import { promises as fsp } from 'node:fs';
import type { MemoryQuery, MemoryResult } from '@cairn/core';
import { DOCUMENTS_POOL_ID } from '@cairn/index-kit';
import type { PackInput } from './compose-pack';

/** One recall through the project's retrieval adapter (`Cairn.recall`, `MemorySearch.recall`). */
export type RecallMemoryFn = (query: MemoryQuery) => Promise<MemoryResult[]>;

/** Chunks of the documents pool the plane considers. */
const DOCUMENT_LIMIT = 8;
const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;

/** The heading a chunk sits under: its own first line, or the nearest one above it in the file. */
async function headingOf(result: MemoryResult, startLine: number): Promise<string | undefined> {
  const first = (result.content ?? result.snippet ?? '').split('\n', 1)[0] ?? '';
  const own = HEADING.exec(first);
  if (own) return own[1];
  const text = await fsp.readFile(result.uri, 'utf8').catch(() => '');
  const lines = text.split('\n').slice(0, Math.max(startLine - 1, 0));
  for (let at = lines.length - 1; at >= 0; at -= 1) {
    const found = HEADING.exec(lines[at]!);
    if (found) return found[1];
  }
  return undefined;
}

async function documentItem(result: MemoryResult): Promise<PackInput> {
  const path = String(result.metadata?.path ?? result.uri);
  const startLine = Number(result.metadata?.startLine ?? 1);
  const endLine = Number(result.metadata?.endLine ?? startLine);
  const heading = await headingOf(result, startLine);
  const text = result.snippet ?? '';
  return {
    id: `DOC:${path}#L${startLine}-L${endLine}`,
    plane: 'documents',
    text,
    source: path,
    // The repository's own text, not reviewed memory: quoted, and only when nothing better answers.
    trustClass: 'raw',
    // `path#heading` names the section; file:line places the chunk (rendered `document a.md#Setup (a.md:3)`).
    provenance: {
      kind: 'document',
      id: heading ? `${path}#${heading}` : path,
      file: path,
      line: startLine,
    },
    score: result.score ?? 0,
    why: `project document match (${heading ? `${path}, ${heading}` : path})`,
    dedupeKey: text.trim().toLowerCase(),
  };
}

/**
 * The documents plane (issue 14 point 4): the project's own documents
 * (the cold `documents` pool: README*, AGENTS.md, CLAUDE.md, docs/, ADRs)
 * recalled for the query, each item with its `path#heading` provenance
 * and trust class `raw` (repository content is untrusted, ARCHITECTURE.md
 * "Trust"), so the trust policy quotes at most the best few.
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
  return Promise.all(results.map(documentItem));
}
