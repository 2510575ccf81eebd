import type { MemoryChunk } from '@cairn/core';

/**
 * How much of each neighbouring chunk of the same file is indexed with a
 * chunk: the end of each of the two chunks before it and the start of the
 * chunk after it. Shared by the keyword index (the `context` column) and
 * the vectors (the chunk before), so both see the same neighbourhood.
 */
export const CONTEXT_CHARS = 300;

/**
 * Weight of the `context` column in bm25 (the chunk's own text weighs 1).
 * A reply is found through the question before it, a note through the
 * notes around it, but a chunk that holds the words itself still ranks
 * first. Measured on LoCoMo (docs/SEARCH.md): 0.3 to 0.5 all gain about
 * nine points of Recall@10 over the text alone.
 */
export const CONTEXT_WEIGHT = 0.4;

const SPACE = /\s/;

/** The last `chars` characters of `text`, not starting inside a word. */
export function contextBefore(text: string, chars = CONTEXT_CHARS): string {
  if (text.length <= chars) return text;
  const cut = text.length - chars;
  if (SPACE.test(text[cut - 1]!)) return text.slice(cut);
  const space = text.slice(cut).search(SPACE);
  return space < 0 ? '' : text.slice(cut + space + 1);
}

/** The first `chars` characters of `text`, not ending inside a word. */
export function contextAfter(text: string, chars = CONTEXT_CHARS): string {
  if (text.length <= chars) return text;
  if (SPACE.test(text[chars]!)) return text.slice(0, chars);
  const head = text.slice(0, chars);
  const space = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\n'), head.lastIndexOf('\t'));
  return space < 0 ? '' : head.slice(0, space);
}

const HEADING_LINE = /^\s*#{1,6}(\s|$)/;

/** A chunk of nothing but markdown headings (a daily file's `# <date>` title). */
export function isHeadingOnly(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 && lines.every((line) => HEADING_LINE.test(line));
}

/** How many chunks before a chunk lend it their end as context. */
export const CONTEXT_BEFORE_CHUNKS = 2;

/**
 * The context of each chunk of one file, in the order given: the end of
 * each of the two chunks before it and the start of the chunk after it (by
 * start line). A reply two turns after its question is found through it,
 * as one right after it (measured on LoCoMo, docs/SEARCH.md). A
 * heading-only chunk gets none: it has no content of its own to be found
 * through its neighbours, and would only come back as noise beside them.
 * It depends only on the file's content, so re-indexing one file keeps
 * every other chunk's context exact.
 */
export function chunkContexts(chunks: readonly MemoryChunk[]): string[] {
  const order = chunks
    .map((chunk, index) => ({ chunk, index }))
    .sort((a, b) => a.chunk.startLine - b.chunk.startLine || a.index - b.index);
  const contexts: string[] = new Array(chunks.length).fill('');
  order.forEach(({ chunk, index }, at) => {
    if (isHeadingOnly(chunk.text)) return;
    const parts: string[] = [];
    for (let back = CONTEXT_BEFORE_CHUNKS; back >= 1; back -= 1) {
      const before = order[at - back]?.chunk.text;
      if (before) parts.push(contextBefore(before));
    }
    const after = order[at + 1]?.chunk.text;
    if (after) parts.push(contextAfter(after));
    contexts[index] = parts.filter((part) => part !== '').join('\n');
  });
  return contexts;
}
