import { allCaptures, keyOf, type SignatureRule } from '../signature-rule';

/** `src/a.ts(12,5): error TS2345: Argument of type ...` (tsc, and tsc --pretty false). */
const TSC_ERROR = /\berror (TS\d{3,5}): (.+)$/;

/** tsc: the set of codes with their messages (the file they are in is not the fix). */
export const typescriptRule: SignatureRule = {
  family: 'typescript',
  key: ({ lines }) => keyOf(allCaptures(lines, TSC_ERROR)),
};
