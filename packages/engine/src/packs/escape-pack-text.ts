import { escapeMarkers } from '@cairn/core';

/**
 * C0/C1 controls (tab and line feed kept), bidi overrides and isolates,
 * and invisible characters that can hide or reorder text.
 */
const HIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/**
 * `<` opening anything tag-like: `<system>`, `</system-reminder>`,
 * `<|im_start|>`, `<!--`, `<?xml`. Written `&lt;` it can no longer open or
 * close a tag, a chat-template token or a comment (Cairn's markers
 * included), and still reads the same to a model.
 */
const TAG_OPENING = /<(?=[/!?|A-Za-z])/g;

/** Line starts that would give an item its own structure: headings, fences, rules, quotes. */
const STRUCTURE = /^([ \t]*)(#|```|~~~|---|===|>)/gm;

/**
 * Makes untrusted text (repository files, Beads issues, prompts, tool
 * output, model output) safe to render inside a pack: it cannot close or
 * forge Cairn's `<!-- cairn:` markers (the core's escapeMarkers, then no
 * `<` opens a tag at all), cannot open a role or chat-template tag, cannot
 * hide text with invisible or reordering characters, and cannot start its
 * own heading, fence or quote. Line breaks are kept; the renderer indents
 * every line under its item.
 */
export function escapePackText(text: string): string {
  const visible = text.replace(/\r\n?/g, '\n').replace(HIDDEN, '');
  return escapeMarkers(visible)
    .replace(TAG_OPENING, '&lt;')
    .replace(STRUCTURE, (_, indent: string, mark: string) => `${indent}\\${mark}`);
}

/** One line: for labels built from untrusted fields (paths, headings, ids). */
export function escapePackLabel(text: string): string {
  return escapePackText(text).replace(/\s+/g, ' ').trim();
}
