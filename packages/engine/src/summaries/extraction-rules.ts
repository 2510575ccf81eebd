/**
 * The extractive summarizer's rules. Each sentence of a user or assistant
 * message is tested against the rows below in order; the first match files
 * the whole sentence (bullets and `**` removed) under that list. Questions
 * (ending in "?") and sentences under 8 characters are skipped unless they
 * start with a label. Matching is case-insensitive; ’ counts as '.
 *
 * | # | List        | Matches                                                  | Example                               |
 * |---|-------------|----------------------------------------------------------|---------------------------------------|
 * | 1 | blockers    | label `Blocker:` `Blocked:` `Error:` `Fatal:` `Failure:` | "Error: ENOENT: no such file"         |
 * | 2 | decisions   | label `Decision:` `Decided:`                             | "Decision: keep SQLite for lineage"   |
 * | 3 | nextSteps   | label `Next:` `Next step(s):` `TODO:` `Follow-up:`       | "TODO: add retries"                   |
 * | 4 | commitments | label `Commitment:` `Promise:`                           | "Commitment: ship by Friday"          |
 * | 5 | decisions   | we decided, let's go with, we'll use, we'll go with,     | "Let's go with zod for validation."   |
 * |   |             | chose, chosen, settled on, agreed to/on, going with      |                                       |
 * | 6 | blockers    | blocked, blocker, can't, cannot, unable to, fails,       | "The build fails on Node 20."         |
 * |   |             | failed, failing, error:, doesn't work, stuck, broken;    |                                       |
 * |   |             | not when it also says fixed/resolved/solved/no longer    | ("...was failing; fixed by X" is not) |
 * | 7 | nextSteps   | starts with "Next" or "Then", next step(s), next up,     | "Next, wire the hook into the CLI."   |
 * |   |             | then we, after that                                      |                                       |
 * | 8 | commitments | I will, I'll, we will, we'll, will do, TODO (capitals),  | "I'll update the docs."               |
 * |   |             | I'm/we're going to                                       |                                       |
 *
 * Sections: a heading (`## Title`, `**Title**`, or a short `Title:` line,
 * optionally numbered) whose title names a list files every following line
 * under it until the next heading, or until a non-list paragraph after a
 * blank line: "Decisions", "Commitments", "Blockers"/"Open issues"/"Risks",
 * "Next steps"/"Pending tasks"/"TODO"/"Open loops"/"Action items",
 * "Files", "Commands", and "Status"/"Current work" (first line = status).
 * Other headings end the section. This reads Claude Code's compaction
 * summaries and Cairn's own rendered summaries back into lists.
 */

import { atxHeadingTitle } from '../text';

export type PhraseCategory = 'decisions' | 'commitments' | 'blockers' | 'nextSteps';
export type SectionCategory = PhraseCategory | 'files' | 'commands' | 'status';

const LABEL_RULES: ReadonlyArray<readonly [RegExp, PhraseCategory]> = [
  [/^(?:blocker|blocked|error|fatal|failure)s?\s*:/i, 'blockers'],
  [/^(?:decision|decided)s?\s*:/i, 'decisions'],
  [/^(?:next(?: steps?)?|todo|follow[- ]?ups?)\s*:/i, 'nextSteps'],
  [/^(?:commitment|promise)s?\s*:/i, 'commitments'],
];

const PHRASE_RULES: ReadonlyArray<readonly [RegExp, PhraseCategory]> = [
  [
    /\bwe(?:'ve| have)? decided\b|\blet'?s go with\b|\bwe(?:'ll| will) (?:use|go with)\b|\bcho(?:se|sen)\b|\bsettled on\b|\bagreed (?:to|on)\b|\bgoing with\b/i,
    'decisions',
  ],
  [
    /\bblock(?:ed|er|ers)\b|\bcan'?t\b|\bcannot\b|\bunable to\b|\bfail(?:s|ed|ing)\b|\berror:|\b(?:doesn'?t|does not) work\b|\bstuck\b|\bbroken\b/i,
    'blockers',
  ],
  [/^(?:next|then)\b(?!\.\w)|\bnext steps?\b|\bnext up\b|\bthen we\b|\bafter that\b/i, 'nextSteps'],
  [
    /\bI(?:'ll| will)\b|\bwe(?:'ll| will)\b|\bwill do\b|\b(?:I'm|I am|we're|we are) going to\b/i,
    'commitments',
  ],
  [/\bTODO\b/, 'commitments'],
];

const SECTION_RULES: ReadonlyArray<readonly [RegExp, SectionCategory]> = [
  [/\bstatus\b|\bcurrent (?:work|state)\b|\bwhere things stand\b/i, 'status'],
  [/\bdecisions?\b|\bdecided\b/i, 'decisions'],
  [/\bcommitments?\b|\bpromises?\b/i, 'commitments'],
  [/\bblock(?:ers?|ed)\b|\bopen (?:issues|problems)\b|\brisks?\b/i, 'blockers'],
  [/\bnext\b|\bpending\b|\btodos?\b|\bopen loops?\b|\bremaining\b|\baction items?\b/i, 'nextSteps'],
  [/\bfiles?\b/i, 'files'],
  [/\bcommands?\b/i, 'commands'],
];

/**
 * Every rule at once, anchors dropped: a line that does not match cannot
 * yield a sentence, so most prose skips sentence splitting altogether.
 */
const ANY_RULE = new RegExp(
  [...LABEL_RULES, ...PHRASE_RULES]
    .map(([pattern]) => pattern.source.replace(/(^|\|)\^/g, '$1'))
    .join('|'),
  'i',
);

/** False when no sentence of `line` can match a rule. */
export function mayClassify(line: string): boolean {
  return ANY_RULE.test(line.includes('’') ? line.replace(/\u2019/g, "'") : line);
}

/** A problem the same sentence reports as solved is not a blocker. */
const RESOLVED = /\b(?:fixed|resolved|solved|works now|passes now|no longer)\b/i;

const MIN_SENTENCE_CHARS = 8;

/** Removes list markers, quote markers, checkboxes and bold markers. */
export function stripMarkup(line: string): string {
  if (/^[A-Za-z"'`(]/.test(line) && !line.includes('**') && !line.includes('__'))
    return line.trim();
  return line
    .replace(/^\s*(?:>\s*)*(?:[-*+\u2022]|\d{1,3}[.)])\s+/, '')
    .replace(/^\[[ xX]\]\s+/, '')
    .replace(/\*\*|__/g, '')
    .trim();
}

/**
 * The labels a list's renderings write themselves (`Decision: …` in a run
 * digest, `Next action: …` in a thread head, `Decisions:` over a list): an
 * item that kept its own label would read `Decision: Decision: …`. A
 * blocker keeps its label (`Error: ENOENT`): it says what kind of trouble.
 */
const OWN_LABELS: Partial<Record<SectionCategory, RegExp>> = {
  decisions: /^(?:decision|decided)s?\s*:\s*/i,
  nextSteps: /^(?:next(?: (?:steps?|actions?))?|todo|follow[- ]?ups?)\s*:\s*/i,
  commitments: /^(?:commitment|promise)s?\s*:\s*/i,
  // A status is rendered `Status: …`: its own label, or the next step's label an answer
  // opening with `Next: …` gives it (the status is the answer's first sentence), comes off.
  status: /^(?:(?:current )?status|summary|next(?: (?:steps?|actions?))?|todo)\s*:\s*/i,
};

/**
 * An item of a list without the label its list renders for it
 * (`Decision: keep SQLite` in decisions is `keep SQLite`, `Status: Next:
 * wire the hook` as a status is `wire the hook`), letter case ignored; the
 * item as it is when nothing would be left.
 */
export function withoutListLabel(category: SectionCategory, item: string): string {
  const label = OWN_LABELS[category];
  if (!label) return item;
  const rest = item.replace(label, '');
  return rest.trim() ? rest : item;
}

/** The list a sentence belongs to, or undefined. */
export function classifySentence(sentence: string): PhraseCategory | undefined {
  const text = sentence.includes('’') ? sentence.replace(/\u2019/g, "'") : sentence;
  if (text.includes(':')) {
    for (const [pattern, category] of LABEL_RULES) if (pattern.test(text)) return category;
  }
  if (text.length < MIN_SENTENCE_CHARS || text.endsWith('?')) return undefined;
  for (const [pattern, category] of PHRASE_RULES) {
    if (!pattern.test(text)) continue;
    if (category === 'blockers' && RESOLVED.test(text)) continue;
    return category;
  }
  return undefined;
}

const SENTENCE_END = /[.!?]\s+(?=[A-Z"'`(*[])/g;

/** Splits a line into sentences at ". ", "! " or "? " before a capital or a quote. */
export function splitSentences(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(line); match; match = SENTENCE_END.exec(line)) {
    sentences.push(line.slice(start, match.index + 1));
    start = SENTENCE_END.lastIndex;
  }
  const rest = line.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** An ATX heading line; its title is trimmed by `atxHeadingTitle` (linear on a line of spaces). */
const MARKDOWN_HEADING = /^#{1,6}[ \t]+(.*)$/;
const BOLD_HEADING = /^\*\*([^*]{1,60})\*\*:?$/;
const COLON_HEADING = /^(?:\d{1,2}\.\s+)?([A-Z][\w /&'-]{0,50}):$/;

/** The title of a heading line, or undefined when the line is not one. */
export function headingTitle(line: string): string | undefined {
  const first = line[0];
  if (first !== '#' && first !== '*' && !line.endsWith(':')) return undefined;
  const atx = MARKDOWN_HEADING.exec(line);
  if (atx) return atxHeadingTitle(atx[1]!) || undefined;
  const match = BOLD_HEADING.exec(line) ?? COLON_HEADING.exec(line);
  return match?.[1];
}

/** The list a heading's section feeds, or null for other headings. */
export function sectionCategory(title: string): SectionCategory | null {
  for (const [pattern, category] of SECTION_RULES) if (pattern.test(title)) return category;
  return null;
}

/** The first sentence of a message, skipping code blocks and headings. */
export function firstSentence(text: string): string | undefined {
  let inFence = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (/^(?:```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || !line) continue;
    const plain = stripMarkup(line.replace(/^#{1,6}\s+/, ''));
    if (!plain) continue;
    return /^.*?[.!?](?=\s|$)/.exec(plain)?.[0] ?? plain;
  }
  return undefined;
}
