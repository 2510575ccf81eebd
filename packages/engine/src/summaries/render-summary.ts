import { SUMMARY_LIST_KEYS, type SummaryListKey, type SummaryLists } from './summary-types';
import { clipBlock } from './text-bounds';

const SECTION_TITLES: Record<SummaryListKey, string> = {
  decisions: 'Decisions',
  commitments: 'Commitments',
  blockers: 'Blockers',
  nextSteps: 'Next steps',
  files: 'Files',
  commands: 'Commands',
};

const CODE_LISTS: ReadonlySet<SummaryListKey> = new Set(['files', 'commands']);

function bullet(key: SummaryListKey, item: string): string {
  return CODE_LISTS.has(key) && !item.includes('`') ? `- \`${item}\`` : `- ${item}`;
}

function render(status: string | undefined, lists: SummaryLists): string {
  const sections: string[] = [];
  if (status) sections.push(`## Status\n${status}`);
  for (const key of SUMMARY_LIST_KEYS) {
    const items = lists[key];
    if (items.length === 0) continue;
    sections.push(
      `## ${SECTION_TITLES[key]}\n${items.map((item) => bullet(key, item)).join('\n')}`,
    );
  }
  return sections.join('\n\n');
}

/** The list with the most characters that still has more than one item. */
function longestList(lists: SummaryLists): SummaryListKey | undefined {
  let best: SummaryListKey | undefined;
  let bestSize = 0;
  for (const key of SUMMARY_LIST_KEYS) {
    const items = lists[key];
    const size = items.reduce((total, item) => total + item.length, 0);
    if (items.length > 1 && size > bestSize) {
      best = key;
      bestSize = size;
    }
  }
  return best;
}

/**
 * Markdown with a section per non-empty list (titles as in SECTION_TITLES,
 * which the extraction rules read back). Over `maxChars`, the oldest item
 * of the largest list is dropped until it fits; a summary still too long
 * after that is cut. Empty when there is nothing to say.
 */
export function renderSummaryMarkdown(
  parts: SummaryLists & { status?: string },
  maxChars: number,
): string {
  const lists = { ...parts };
  let text = render(parts.status, lists);
  while (text.length > maxChars) {
    const key = longestList(lists);
    if (!key) break;
    lists[key] = lists[key].slice(1);
    text = render(parts.status, lists);
  }
  return clipBlock(text, maxChars);
}
