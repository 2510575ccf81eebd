import { escapeMarkers, estimateTokens, redactSecrets } from '@cairn/core';

/** One block of injected context, in priority order. */
export interface InjectionSection {
  title: string;
  lines: string[];
}

/**
 * Joins sections within a token budget: earlier sections and earlier lines
 * win; a section whose title does not fit is left out whole. Secrets in
 * the lines (recalled prompts, tool output, summaries, heads) are
 * redacted, and Cairn markers escaped, so nothing the agent copies back
 * can break a managed region.
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
    for (const raw of section.lines) {
      const line = escapeMarkers(redactSecrets(raw).text);
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
