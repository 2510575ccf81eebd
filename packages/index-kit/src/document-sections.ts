import type { MemoryChunk } from '@cairn/core';
import type { Root, RootContent } from 'mdast';

/**
 * The sections of a project document, found by a real Markdown parser
 * (mdast-util-from-markdown; front matter blanked first): a heading (ATX or setext,
 * never a `#` line inside a code fence) starts a section that runs to the
 * next heading; text before the first heading is a section without one;
 * front matter is no section at all. Each section is one chunk of the
 * documents pool, whole up to `SECTION_MAX_CHARS`; a longer one is cut at
 * a block boundary (a code block is kept whole, or cut at a line and its
 * fence closed when it alone is too long), and each further part starts
 * with the section's heading line again so it is found and named by it.
 * Runs when the documents are indexed, never per prompt; the parser is
 * imported on first use.
 */

/** About 800 tokens: a section long enough to hold the code that answers, short enough to share a pack. */
export const SECTION_MAX_CHARS = 3200;

interface Block {
  startLine: number;
  endLine: number;
  code: boolean;
}

interface Section {
  heading?: { line: string; lineNo: number };
  blocks: Block[];
}

type Parse = (text: string) => Root;
let parser: Promise<Parse> | undefined;

/**
 * Only the top-level blocks are read, so inline syntax is not parsed:
 * links, emphasis and code spans cost the parser most on hostile text (a
 * run of 20,000 `[` took 1.5 s) and change no block's lines.
 */
const BLOCKS_ONLY = {
  disable: {
    null: [
      'attention',
      'autolink',
      'characterEscape',
      'characterReference',
      'codeText',
      'hardBreakEscape',
      'htmlText',
      'labelEnd',
      'labelStartImage',
      'labelStartLink',
    ],
  },
};

async function loadParser(): Promise<Parse> {
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  return (text) => fromMarkdown(text, { extensions: [BLOCKS_ONLY] });
}

/**
 * The parser's work grows faster than the text with list and quote
 * markers (8,000 lines of `- - x`, 48 KB, took 17 s; one line of 8,000
 * `- ` held a prompt for 20 s). A document with more markers than this is
 * sectioned by the line scan instead, which takes linear time.
 */
const MAX_CONTAINER_MARKERS = 2000;
/** One list or quote marker opening (what is left of) a line. */
const CONTAINER_MARKER = /[ \t]*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)|>[ \t]?)/y;

/** Whether the document holds more list and quote markers than the parser is given. */
function tooNested(lines: readonly string[]): boolean {
  let markers = 0;
  for (const line of lines) {
    CONTAINER_MARKER.lastIndex = 0;
    while (CONTAINER_MARKER.lastIndex < line.length) {
      const before = CONTAINER_MARKER.lastIndex;
      if (!CONTAINER_MARKER.test(line) || CONTAINER_MARKER.lastIndex === before) break;
      markers += 1;
      if (markers > MAX_CONTAINER_MARKERS) return true;
    }
  }
  return false;
}

const ATX_LINE = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const SETEXT_LINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
/** A line opening a list item or a quote: a rule under it underlines nothing. */
const LIST_OR_QUOTE = /^[ \t]*(?:[-*+>]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Sections by a scan of the lines, for a document the parser is not
 * given: an ATX heading outside a fence, or a one-line paragraph with a
 * setext underline, starts a section; a fenced block is one code block,
 * other blocks end at a blank line.
 */
function sectionsByLines(lines: readonly string[]): Section[] {
  const sections: Section[] = [];
  let current: Section = { blocks: [] };
  let block: Block | undefined;
  let fence: string | undefined;
  const flush = () => {
    if (block) current.blocks.push(block);
    block = undefined;
  };
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (fence !== undefined) {
      block!.endLine = lineNo;
      const trimmed = line.trim();
      if (trimmed.length >= fence.length && [...trimmed].every((char) => char === fence![0])) {
        fence = undefined;
        flush();
      }
      return;
    }
    const opening = FENCE_LINE.exec(line);
    if (opening || ATX_LINE.test(line) || line.trim() === '') flush();
    if (opening) {
      fence = opening[1]!;
      block = { startLine: lineNo, endLine: lineNo, code: true };
    } else if (ATX_LINE.test(line)) {
      if (current.heading || current.blocks.length > 0) sections.push(current);
      current = { heading: { line, lineNo }, blocks: [] };
    } else if (
      block?.startLine === lineNo - 1 &&
      SETEXT_LINE.test(line) &&
      !LIST_OR_QUOTE.test(lines[lineNo - 2]!)
    ) {
      // `Title` then `-----`: the title line names the section, the underline is its first block.
      if (current.heading || current.blocks.length > 0) sections.push(current);
      current = { heading: { line: lines[lineNo - 2]!, lineNo: lineNo - 1 }, blocks: [] };
      block = { startLine: lineNo, endLine: lineNo, code: false };
    } else if (line.trim() !== '') {
      block ??= { startLine: lineNo, endLine: lineNo, code: false };
      block.endLine = lineNo;
    }
  });
  flush();
  if (current.heading || current.blocks.length > 0) sections.push(current);
  return sections;
}

/** YAML (`---`) or TOML (`+++`) front matter at the very start of a document. */
const FRONT_MATTER = /^(---|\+\+\+)\r?\n[\s\S]*?\r?\n(?:\1|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** The document with its front matter blanked line for line: no section, same line numbers. */
function withoutFrontMatter(text: string): string {
  const found = FRONT_MATTER.exec(text);
  if (!found) return text;
  return found[0].replace(/[^\r\n]/g, '') + text.slice(found[0].length);
}

const lineOf = (node: RootContent, end = false) =>
  (end ? node.position?.end.line : node.position?.start.line) ?? 1;

function sectionsOf(tree: Root, lines: readonly string[]): Section[] {
  const sections: Section[] = [];
  let current: Section = { blocks: [] };
  for (const node of tree.children) {
    if (node.type === 'heading') {
      if (current.heading || current.blocks.length > 0) sections.push(current);
      const lineNo = lineOf(node);
      // A setext heading spans its text and its underline: the text line names it.
      current = { heading: { line: lines[lineNo - 1] ?? '', lineNo }, blocks: [] };
      const end = lineOf(node, true);
      if (end > lineNo) current.blocks.push({ startLine: lineNo + 1, endLine: end, code: false });
      continue;
    }
    current.blocks.push({
      startLine: lineOf(node),
      endLine: lineOf(node, true),
      code: node.type === 'code',
    });
  }
  if (current.heading || current.blocks.length > 0) sections.push(current);
  return sections;
}

const textOf = (lines: readonly string[], from: number, to: number) =>
  lines.slice(from - 1, to).join('\n');

/** A code block too long for one part: its lines up to the cap, its fence closed. */
function cutCode(
  lines: readonly string[],
  block: Block,
  room: number,
): { text: string; endLine: number } {
  const fence = /^\s*(`{3,}|~{3,})/.exec(lines[block.startLine - 1] ?? '')?.[1] ?? '```';
  let end = block.startLine;
  let size = (lines[end - 1] ?? '').length;
  while (end < block.endLine - 1 && size + (lines[end]?.length ?? 0) + 1 + fence.length < room) {
    size += (lines[end]?.length ?? 0) + 1;
    end += 1;
  }
  return { text: `${textOf(lines, block.startLine, end)}\n${fence}`, endLine: end };
}

interface Part {
  startLine: number;
  endLine: number;
  text: string;
}

/** A section's parts, each within the cap, cut at block boundaries. */
function partsOf(section: Section, lines: readonly string[]): Part[] {
  const head = section.heading ? `${section.heading.line}\n` : '';
  const parts: Part[] = [];
  let blocks: Block[] = [];
  const flush = () => {
    if (blocks.length === 0) return;
    const first = blocks[0]!.startLine;
    const last = blocks.at(-1)!.endLine;
    parts.push({ startLine: first, endLine: last, text: textOf(lines, first, last) });
    blocks = [];
  };
  const size = () =>
    blocks.length ? textOf(lines, blocks[0]!.startLine, blocks.at(-1)!.endLine).length : 0;
  for (const block of section.blocks) {
    const own = textOf(lines, block.startLine, block.endLine).length;
    if (blocks.length > 0 && head.length + size() + own + 2 > SECTION_MAX_CHARS) flush();
    if (blocks.length === 0 && head.length + own > SECTION_MAX_CHARS && block.code) {
      const cut = cutCode(lines, block, SECTION_MAX_CHARS - head.length);
      parts.push({ startLine: block.startLine, endLine: cut.endLine, text: cut.text });
      continue;
    }
    blocks.push(block);
  }
  flush();
  if (parts.length === 0 && section.heading) {
    const { lineNo, line } = section.heading;
    return [{ startLine: lineNo, endLine: lineNo, text: line }];
  }
  // The first part starts at the heading; each further part repeats it, so it is named by it.
  return parts.map((part, index) => {
    if (!section.heading) return part;
    if (index === 0) {
      const start = section.heading.lineNo;
      return { startLine: start, endLine: part.endLine, text: textOf(lines, start, part.endLine) };
    }
    return { ...part, text: `${head}${part.text}` };
  });
}

/** The chunks of one project document: one per section (or part of a long one), in file order. */
export async function documentSectionChunks(text: string, path: string): Promise<MemoryChunk[]> {
  const lines = text.split(/\r?\n/);
  let sections: Section[];
  if (tooNested(lines)) sections = sectionsByLines(withoutFrontMatter(text).split(/\r?\n/));
  else {
    parser ??= loadParser();
    sections = sectionsOf((await parser)(withoutFrontMatter(text)), lines);
  }
  const chunks: MemoryChunk[] = [];
  for (const section of sections) {
    for (const part of partsOf(section, lines)) {
      if (part.text.trim() === '') continue;
      chunks.push({
        id: `${path}#L${part.startLine}-L${part.endLine}`,
        kind: 'RAW',
        path,
        startLine: part.startLine,
        endLine: part.endLine,
        text: part.text,
      });
    }
  }
  return chunks;
}
