import { estimateTokenCount } from '@cairn/engine/internals';

/**
 * How an injection is judged (docs/BENCHMARKS.md "Injection quality"): its
 * text is cut into the items Cairn labelled (`- [trust · provenance] …`
 * and the lines under each), each item is named by its provenance and
 * counted with the plain token estimate.
 */

export interface InjectedItem {
  /** `unit UNIT:…`, `document README.md#Deploy`, `head thread …`, `run …`, `lineage …`. */
  provenance: string;
  kind: string;
  text: string;
  tokens: number;
}

const ITEM = /^- \[[^\]·]+ · ([^\]]+)\]/;
/** `unit UNIT:… (2026-05-01.md:3)`, `document README.md#Deploy key (README.md:5)`: kind and id, place dropped. */
const PROVENANCE_ID = /^(\S+) (.+?)(?: \([^()]*\))?(?: § .*)?$/;

/** The items of a rendered pack, in order (the frame, titles and markers are not items). */
export function injectedItems(text: string): InjectedItem[] {
  const items: InjectedItem[] = [];
  let current: string[] | undefined;
  let provenance = '';
  const flush = () => {
    if (!current) return;
    const body = current.join('\n');
    items.push({
      provenance,
      kind: provenance.split(' ')[0] ?? '',
      text: body,
      tokens: estimateTokenCount(body),
    });
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const label = ITEM.exec(line);
    if (label) {
      flush();
      const match = PROVENANCE_ID.exec(label[1]!);
      provenance = match ? `${match[1]} ${match[2]}` : label[1]!;
      current = [line];
    } else if (current && (line.startsWith('  ') || line === '')) {
      if (line !== '') current.push(line);
    } else flush();
  }
  flush();
  return items;
}

/**
 * Markup artifacts a model should never see: a label said twice
 * (`Decision: Decision:`, `Next action: Next:`), a backslash escape of
 * Markdown structure at a line's start (`\#`, `\>`, `\-`, `\=`, `` \` ``,
 * `\[`), an HTML entity (`&lt;`, `&#39;`), an item whose code fences do not
 * close, or a line whose `**` do not pair up.
 */
export function markupArtifacts(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (
      /\b(Decision|Next(?: action| step)?|Status|Commitment|TODO)s?:\s+(Decision|Next|Status|Commitment|TODO)s?:/i.test(
        line,
      )
    )
      found.push(`doubled label: ${line.trim()}`);
    if (/^[ \t]*(?:>[ \t]*)*\\[#>`=[-]/.test(line)) found.push(`escaped markup: ${line.trim()}`);
    if (/&(?:lt|gt|amp|quot|apos|nbsp|#\d+|#x[0-9a-f]+);/i.test(line))
      found.push(`HTML entity: ${line.trim()}`);
    // `**` inside a code span is code (a glob), not emphasis.
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    if ((prose.match(/\*\*/g) ?? []).length % 2 === 1) found.push(`unpaired **: ${line.trim()}`);
  }
  for (const item of injectedItems(text)) {
    const fences = item.text.split('\n').filter((l) => /^[ \t]*(?:>[ \t]*)?(```|~~~)/.test(l));
    if (fences.length % 2 === 1) found.push(`unclosed fence in ${item.provenance}`);
  }
  return found;
}

/** Words of a line as a fact: list and quote marks, labels, code marks and ids set aside. */
function normalized(line: string): string {
  return line
    .replace(/^[ \t]*(?:- \[[^\]]*\]\s*)?(?:>[ \t]*)*(?:[-*+]|\d+[.)])?\s*/, '')
    .replace(/^(?:`[^`]+`|[A-Z][\w ]{0,30}):\s+/, '')
    .replace(/[`*_]/g, '')
    .replace(/\b(?:UNIT|node):[\w-]+/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Tokens of lines that say again what an earlier line of the same
 * injection said (five words or more, the same words once normalized),
 * over all the tokens of the items.
 */
export function repeatedTokenShare(text: string): { repeated: number; total: number } {
  const seen = new Set<string>();
  let repeated = 0;
  let total = 0;
  for (const item of injectedItems(text)) {
    for (const line of item.text.split('\n')) {
      const tokens = estimateTokenCount(line);
      total += tokens;
      const words = normalized(line);
      if (words.split(' ').length < 5) continue;
      if (seen.has(words)) repeated += tokens;
      else seen.add(words);
    }
  }
  return { repeated, total };
}
