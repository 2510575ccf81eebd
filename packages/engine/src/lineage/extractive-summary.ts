/** What a summarizer returns: the text and who wrote it ('extractive', 'openai:<model>', ...). */
export interface SummaryText {
  text: string;
  source: string;
}

export const EXTRACTIVE_SOURCE = 'extractive';

const LINES_PER_TEXT = 2;
const CHARS_PER_TEXT = 240;
const MAX_CHARS = 4000;

/** The first meaningful lines of `text`, markdown markers dropped, on one line. */
export function excerptOf(text: string, lines = LINES_PER_TEXT, chars = CHARS_PER_TEXT): string {
  const kept = text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*)/, '').trim())
    .filter((line) => line !== '')
    .slice(0, lines)
    .join(' / ');
  return kept.length > chars ? `${kept.slice(0, chars - 1).trimEnd()}…` : kept;
}

/**
 * The offline default: one bullet per source, oldest first, each the first
 * lines of that source, bounded in total. Deterministic, so two processes
 * condensing the same roots would write the same text.
 */
export function extractiveSummary(texts: readonly string[]): SummaryText {
  const bullets: string[] = [];
  let size = 0;
  for (const [index, text] of texts.entries()) {
    const bullet = `- ${excerptOf(text) || '(empty)'}`;
    if (size + bullet.length + 1 > MAX_CHARS) {
      bullets.push(`- … and ${texts.length - index} more`);
      break;
    }
    bullets.push(bullet);
    size += bullet.length + 1;
  }
  return { text: bullets.join('\n'), source: EXTRACTIVE_SOURCE };
}
