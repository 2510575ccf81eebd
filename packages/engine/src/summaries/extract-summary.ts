import { toolInputPart } from '../lineage';
import {
  collectCommands,
  collectFencedCommand,
  collectPaths,
  toolCommand,
} from './extract-references';
import {
  classifySentence,
  firstSentence,
  headingTitle,
  mayClassify,
  type SectionCategory,
  sectionCategory,
  splitSentences,
  stripMarkup,
  withoutListLabel,
} from './extraction-rules';
import { SUMMARY_LIST_KEYS, type SummaryLists, type TranscriptLine } from './summary-types';
import { boundList, clip, pathKey } from './text-bounds';

/** The structured part of a summary, before rendering. */
export interface ExtractedSummary extends SummaryLists {
  status?: string;
}

/** Raw matches in the order they appeared; bounded at the end. */
interface Collector extends SummaryLists {
  /** First line of the latest "Status" section seen. */
  sectionStatus?: string;
}

const FENCE = /^(?:```|~~~)\s*([\w-]*)/;

/** Only the first part of a huge entry is read, so one pasted log cannot stall a hook. */
const MAX_SCAN_CHARS = 50_000;

function emptyCollector(): Collector {
  return { decisions: [], commitments: [], blockers: [], nextSteps: [], files: [], commands: [] };
}

interface SectionState {
  category: SectionCategory | null;
  items: number;
  afterBlank: boolean;
  statusTaken: boolean;
}

function addSectionLine(line: string, state: SectionState, out: Collector): void {
  const item = stripMarkup(line);
  if (!item) return;
  state.items += 1;
  if (state.category === 'status') {
    if (!state.statusTaken) out.sectionStatus = item;
    state.statusTaken = true;
  } else if (state.category === 'files' || state.category === 'commands') {
    const bare = item
      .replace(/^\$\s+/, '')
      .replace(/`/g, '')
      .trim();
    if (state.category === 'commands') out.commands.push(bare);
    else if (!/\s/.test(bare)) out.files.push(bare);
  } else if (state.category) {
    out[state.category].push(withoutListLabel(state.category, item));
  }
}

function addProseLine(line: string, out: Collector): void {
  if (!mayClassify(line)) return;
  for (const sentence of splitSentences(stripMarkup(line))) {
    const category = classifySentence(sentence);
    if (category) out[category].push(withoutListLabel(category, sentence));
  }
}

/** True when a line continues the current section (see the section rule). */
function staysInSection(line: string, state: SectionState): boolean {
  if (!state.category) return false;
  const isListItem = /^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+/.test(line);
  return isListItem || !state.afterBlank || state.items === 0;
}

/** Runs the rules over one message (or a harness summary, or a previous summary). */
export function scanText(text: string, out: Collector): void {
  const section: SectionState = { category: null, items: 0, afterBlank: false, statusTaken: false };
  let fence: string | undefined;
  for (const raw of text.slice(0, MAX_SCAN_CHARS).split('\n')) {
    const line = raw.trim();
    const first = line[0];
    const fenceOpen = first === '`' || first === '~' ? FENCE.exec(line) : null;
    if (fenceOpen) {
      fence = fence === undefined ? fenceOpen[1]!.toLowerCase() : undefined;
      continue;
    }
    if (fence !== undefined) {
      collectPaths(line, out.files);
      collectFencedCommand(line, fence, out.commands);
      continue;
    }
    if (!line) {
      section.afterBlank = true;
      continue;
    }
    const title = headingTitle(line);
    if (title !== undefined) {
      collectPaths(line, out.files);
      Object.assign(section, {
        category: sectionCategory(title),
        items: 0,
        afterBlank: false,
        statusTaken: false,
      });
      continue;
    }
    if (!staysInSection(line, section)) section.category = null;
    // Paths inside a Commands section are arguments, not files worth listing.
    if (section.category !== 'commands') collectPaths(line, out.files);
    collectCommands(line, out.commands);
    if (section.category) {
      addSectionLine(line, section, out);
      section.afterBlank = false;
    } else {
      addProseLine(line, out);
    }
  }
}

function scanEntry(entry: TranscriptLine, out: Collector): void {
  if (entry.role === 'system') return;
  if (entry.role === 'tool') {
    // Its input only (the command run, the file read): tool output is raw
    // text, never words of a summary (docs/SECURITY.md "Escaping").
    const input = toolInputPart(entry.text.slice(0, MAX_SCAN_CHARS));
    collectPaths(input, out.files);
    out.commands.push(toolCommand(entry.toolName, input));
    return;
  }
  scanText(entry.text, out);
}

function finish(out: Collector, status: string | undefined): ExtractedSummary {
  const lists = {} as SummaryLists;
  for (const key of SUMMARY_LIST_KEYS) {
    lists[key] = boundList(out[key], key === 'files' ? pathKey : undefined);
  }
  const bare = status && withoutListLabel('status', status);
  return bare ? { status: clip(bare), ...lists } : lists;
}

/**
 * Extracts lists from a transcript. The previous summary is read first, as
 * the oldest material, so its items survive until newer ones push them out.
 * Status: the first sentence of the last non-empty assistant message, else
 * the previous summary's status.
 */
export function extractFromTranscript(
  transcript: readonly TranscriptLine[],
  previous?: string,
): ExtractedSummary {
  const out = emptyCollector();
  if (previous) scanText(previous, out);
  for (const entry of transcript) scanEntry(entry, out);
  let status: string | undefined;
  for (let index = transcript.length - 1; index >= 0 && status === undefined; index -= 1) {
    const entry = transcript[index]!;
    if (entry.role === 'assistant') status = firstSentence(entry.text.slice(0, MAX_SCAN_CHARS));
  }
  return finish(out, status ?? out.sectionStatus);
}

/** Extracts lists from a standalone text; status from its Status section or first sentence. */
export function extractFromText(text: string): ExtractedSummary {
  const out = emptyCollector();
  scanText(text, out);
  return finish(out, out.sectionStatus ?? firstSentence(text.slice(0, MAX_SCAN_CHARS)));
}
