import { keyOf, lastCapture, type SignatureRule } from '../signature-rule';

const ERROR_WORD =
  /\b(?:[Ee]rror|ERROR|[Ff]atal|FATAL|[Ee]xception|[Ff]ailed|FAILED|[Ff]ailure|panic|[Dd]enied|[Rr]efused|[Nn]ot found|[Cc]annot|[Uu]nable to)\b/;
const LAST_LINE = /^\s*(\S.*)$/;

/** Anything else: the first line that reads like an error, else the last line. */
export const genericRule: SignatureRule = {
  family: 'generic',
  key: ({ lines }) =>
    keyOf(lines.find((line) => ERROR_WORD.test(line))?.trim() ?? lastCapture(lines, LAST_LINE)),
};
