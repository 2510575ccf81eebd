/** Text helpers below every module: line-break normalising and Markdown code spans. */
export { fencedCode, normalizeBreaks } from './fenced-code';
