/** Text helpers below every module: line-break normalising, Markdown code spans and heading titles. */
export { atxHeadingTitle } from './atx-heading-title';
export { fencedCode, normalizeBreaks } from './fenced-code';
