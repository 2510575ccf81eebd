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

async function loadParser(): Promise<Parse> {
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  return (text) => fromMarkdown(text);
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
  parser ??= loadParser();
  const parse = await parser;
  const lines = text.split(/\r?\n/);
  const chunks: MemoryChunk[] = [];
  for (const section of sectionsOf(parse(withoutFrontMatter(text)), lines)) {
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
