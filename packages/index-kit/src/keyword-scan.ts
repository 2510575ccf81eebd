import { redactSecrets } from '@cairn/core';
import { codeQueryTerms } from './code-terms';
/**
 * A plain keyword scan over markdown: split into paragraph blocks, score
 * each block by the query terms it contains, return bounded snippets.
 * Good enough for small workspaces; the SQLite index replaces it for search.
 */

export interface ScanHit {
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  /** The whole block the snippet was cut from. */
  text: string;
}

/** Common English function words: they match almost every chunk and rank nothing. */
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further
  had has have having he her here hers herself him himself his how i if in into is it its itself
  just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such than that the their theirs them themselves then there
  these they this those through to too under until up us very was we were what when where which
  while who whom why will with would you your yours yourself yourselves`.split(/\s+/),
);

/** Whether a lowercase word is too common to search for (`the`, `who`, `was`). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * Lowercase alphanumeric terms, stop words dropped, deduplicated: the
 * query's words and the whole forms of its compounds (`refresh_tokens` also
 * gives `refreshtokens`), then the parts of its camelCase words
 * (`onDownloadProgress` also gives `download`, `progress`). See code-terms.ts.
 */
export function queryTerms(query: string): string[] {
  const { words, parts } = codeQueryTerms(query, (word) => !STOP_WORDS.has(word));
  return [...words, ...parts];
}

/** Markers are metadata: they never appear in snippets. */
const MARKER_LINE = /^\s*<!--\s*cairn:[^>]*-->\s*$/;
const MAX_BLOCK_LINES = 24;

interface Block {
  startLine: number;
  endLine: number;
  text: string;
}

function splitBlocks(content: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let start = 0;
  const flush = (end: number) => {
    if (lines.length > 0) blocks.push({ startLine: start, endLine: end, text: lines.join('\n') });
    lines = [];
  };
  content.split('\n').forEach((line, index) => {
    const lineNo = index + 1;
    const boundary = line.trim() === '' || line.trim() === '----' || MARKER_LINE.test(line);
    if (boundary || lines.length >= MAX_BLOCK_LINES) flush(lineNo - 1);
    if (boundary) return;
    if (lines.length === 0) start = lineNo;
    lines.push(line);
  });
  flush(content.split('\n').length);
  return blocks;
}

function countOccurrences(haystack: string, term: string): number {
  let count = 0;
  let at = haystack.indexOf(term);
  while (at !== -1) {
    count += 1;
    at = haystack.indexOf(term, at + term.length);
  }
  return count;
}

/**
 * Cuts `text` to at most `maxChars`, centred on the first matching term. A
 * text that must be cut is redacted first (redactSecrets): a cut through a
 * secret (a key block without its BEGIN line, a token without its prefix)
 * would leave a part no later pass recognises. A whole text comes back as
 * written; whoever shows it redacts it.
 */
export function boundSnippet(text: string, terms: string[], maxChars: number): string {
  const whole = text.replace(/\s+/g, ' ').trim();
  if (whole.length <= maxChars) return whole;
  const flat = redactSecrets(whole).text;
  if (flat.length <= maxChars) return flat;
  const lower = flat.toLowerCase();
  const first = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), flat.length);
  const start = Math.max(0, Math.min(first - Math.floor(maxChars / 4), flat.length - maxChars));
  const body = flat.slice(start, start + maxChars - 2);
  return `${start > 0 ? '…' : ''}${body}${start + maxChars - 2 < flat.length ? '…' : ''}`;
}

/** Scores every block of `content` against `terms`; blocks with no match are dropped. */
export function scanMarkdown(content: string, terms: string[], snippetChars: number): ScanHit[] {
  if (terms.length === 0) return [];
  const hits: ScanHit[] = [];
  for (const block of splitBlocks(content)) {
    const lower = block.text.toLowerCase();
    let matched = 0;
    let weight = 0;
    for (const term of terms) {
      const count = countOccurrences(lower, term);
      if (count === 0) continue;
      matched += 1;
      weight += 1 + Math.log(count);
    }
    if (matched === 0) continue;
    // Coverage of the query dominates; repeated terms and short blocks break ties.
    const score = (matched / terms.length) * 10 + weight / Math.sqrt(1 + lower.length / 200);
    hits.push({
      startLine: block.startLine,
      endLine: block.endLine,
      score: Math.round(score * 1000) / 1000,
      snippet: boundSnippet(block.text, terms, snippetChars),
      text: block.text,
    });
  }
  return hits;
}
