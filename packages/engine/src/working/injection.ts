import { estimateTokens, redactSecrets } from '@cairn/core';
import { escapeRendered } from '../packs/escape-pack-text';

/** One block of injected context, in priority order. */
export interface InjectionSection {
  title: string;
  /** Rendered and escaped by the pack's escaping (packs/escape-pack-text.ts), quotations marked. */
  lines: string[];
}

/**
 * A section's lines with secrets redacted, in one pass over the section
 * (a private key block spanning lines is found whole). Line boundaries
 * stay where they were unless a key block took lines away; then the
 * section is split afresh at its line breaks.
 */
function redactLines(lines: string[]): string[] {
  const joined = lines.join('\n');
  const result = redactSecrets(joined);
  if (!result.redacted) return lines;
  const breaks = (text: string) => text.split('\n').length - 1;
  const parts = result.text.split('\n');
  if (parts.length - 1 !== breaks(joined)) return parts;
  let at = 0;
  return lines.map((line) => {
    const count = breaks(line) + 1;
    const mine = parts.slice(at, at + count).join('\n');
    at += count;
    return mine;
  });
}

/**
 * Joins sections within a token budget: earlier sections and earlier lines
 * win; a section whose title does not fit is left out whole. Secrets in
 * the lines are redacted. The lines come escaped by whoever rendered them
 * (the Known-fix block: `renderKnownFix`), so no line can pass for another
 * block; each is checked again for tags, markers and hidden characters.
 */
export function composeInjection(sections: InjectionSection[], budgetTokens: number): string {
  const out: string[] = [];
  let used = 0;
  for (const section of sections) {
    if (section.lines.length === 0) continue;
    const titleCost = estimateTokens(section.title) + 1;
    if (used + titleCost > budgetTokens) break;
    const kept: string[] = [];
    let cost = titleCost;
    for (const redacted of redactLines(section.lines)) {
      const line = escapeRendered(redacted);
      const lineCost = estimateTokens(line) + 1;
      if (used + cost + lineCost > budgetTokens) break;
      kept.push(line);
      cost += lineCost;
    }
    if (kept.length === 0) continue;
    out.push(section.title, ...kept, '');
    used += cost;
  }
  return out.join('\n').trim();
}
