import { firstCapture, hasLine, keyOf, type SignatureRule } from '../signature-rule';
import { keepQuotedFileName } from './quoted-file-name';

/** `TypeError: x is not a function`, `Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x'`. */
const JS_ERROR =
  /^\s*(?:Uncaught\s)?((?:[A-Z][A-Za-z]*)?(?:Error|Exception)(?:\s\[[A-Z][A-Z0-9_]*\])?): (.+)$/;
const STACK_FRAME = /^\s+at\s\S/;
const NODE_CODE = /^\s*code: '([A-Z][A-Z0-9_]*)'/;
const NODE_MARKS = /\bnode:internal\b|\bERR_[A-Z_]+\b|^Node\.js v\d/;

/** Node refusing its own command line: `node: bad option: --experimental-magic`. */
const NODE_OPTION = /^node: (bad option: \S+|.+ is not allowed in NODE_OPTIONS)$/;

/** Node: a JS error with a stack, a Node error code, or Node's own trailer; key = class, code, message. */
export const nodeRule: SignatureRule = {
  family: 'node',
  key({ lines }) {
    const option = firstCapture(lines, NODE_OPTION);
    if (option) return keyOf(option);
    if (!hasLine(lines, STACK_FRAME) && !hasLine(lines, NODE_MARKS)) return undefined;
    const match = lines.map((line) => JS_ERROR.exec(line)).find(Boolean);
    if (!match) return undefined;
    const code = firstCapture(lines, NODE_CODE);
    return keyOf(
      match[1],
      code && !match[1]?.includes(code) && !match[2]?.includes(code) ? `code ${code}` : undefined,
      match[2] === undefined ? undefined : keepQuotedFileName(match[2]),
    );
  },
};
