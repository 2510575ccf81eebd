import {
  chunkDocument,
  MemoryBackendError,
  type MemoryChunk,
  parseMemoryDocument,
} from '@cairn/core';

/** One entry of `qmd search --json`: a whole document, its best line and a [0, 1) score. */
export interface QmdHit {
  file: string;
  score: number;
  line: number | undefined;
  docid: string | undefined;
}

function malformed(reason: string, stdout: string): MemoryBackendError {
  return new MemoryBackendError(
    'BACKEND_UNAVAILABLE',
    'qmd',
    `qmd search printed unexpected output: ${reason}`,
    {
      hint: 'check the qmd version (Cairn expects @tobilu/qmd 2); search uses the file index meanwhile',
      details: { reason: 'failed', output: stdout.slice(0, 400) },
    },
  );
}

/** Validates `qmd search --json` output (an array of hits; anything else is a failure). */
export function parseQmdHits(stdout: string): QmdHit[] {
  const start = stdout.search(/^\s*\[/m);
  if (start < 0) throw malformed('no JSON array', stdout);
  let data: unknown;
  try {
    data = JSON.parse(stdout.slice(start));
  } catch (error) {
    throw malformed(`invalid JSON (${(error as Error).message})`, stdout);
  }
  if (!Array.isArray(data)) throw malformed('not an array', stdout);
  return data.map((item: unknown, index) => {
    const entry = item as Record<string, unknown> | null;
    if (typeof entry !== 'object' || entry === null || typeof entry.file !== 'string') {
      throw malformed(`entry ${index} has no "file"`, stdout);
    }
    const score = typeof entry.score === 'number' && Number.isFinite(entry.score) ? entry.score : 0;
    const line =
      typeof entry.line === 'number' && Number.isInteger(entry.line) && entry.line > 0
        ? entry.line
        : undefined;
    return {
      file: entry.file,
      score,
      line,
      docid: typeof entry.docid === 'string' ? entry.docid : undefined,
    };
  });
}

const MARKER_LINE = /^\s*<!--\s*cairn:[^>]*-->\s*$/;

/** Chunk text without marker lines (the head markers are RAW lines to the parser). */
export function chunkText(chunk: MemoryChunk): string {
  return chunk.text
    .split('\n')
    .filter((line) => !MARKER_LINE.test(line))
    .join('\n')
    .trim();
}

/**
 * Roots to look for in chunk text: qmd stems with porter, so "deploys"
 * also matched "deployed". A short prefix finds such forms.
 */
export function termRoots(terms: string[]): string[] {
  return [...new Set(terms.map((t) => (t.length > 5 ? t.slice(0, Math.max(5, t.length - 2)) : t)))];
}

function matchedTerms(text: string, roots: string[]): number {
  const lower = text.toLowerCase();
  return roots.filter((root) => lower.includes(root)).length;
}

/**
 * The chunks of one document hit, best first: the chunk holding qmd's best
 * line, then every other chunk that holds a query term (most terms first).
 * qmd ranks whole documents; this turns a hit into bounded, addressable pieces.
 */
export function rankChunks(
  text: string,
  path: string,
  line: number | undefined,
  roots: string[],
): MemoryChunk[] {
  const chunks = chunkDocument(parseMemoryDocument(text, path)).filter(
    (chunk) => chunkText(chunk) !== '',
  );
  const scored = chunks
    .map((chunk, order) => ({
      chunk,
      order,
      atLine: line !== undefined && chunk.startLine <= line && line <= chunk.endLine,
      matched: matchedTerms(chunkText(chunk), roots),
    }))
    .filter((entry) => entry.atLine || entry.matched > 0);
  scored.sort(
    (a, b) => Number(b.atLine) - Number(a.atLine) || b.matched - a.matched || a.order - b.order,
  );
  return scored.map((entry) => entry.chunk);
}

/** Scores within one document step down slightly so qmd's document order is kept. */
export function chunkScore(documentScore: number, rank: number): number {
  return Math.round(documentScore * (1 - rank * 0.01) * 10_000) / 10_000;
}
