import { parseInput } from '@cairn/core';
import {
  approveAndPromoteFixPattern,
  checkFixPatternState,
  deprecateFixPattern,
  getFixPattern,
  listFixPatterns,
  reopenFixPattern,
} from '@cairn/engine';
import * as z from 'zod/mini';
import { queryObject, type Route, type RouteContext } from './route';

const PATTERN_PATH = /^\/api\/patterns\/((?:FIX-)?[0-9a-f]{4,12})$/;
const DECISION_PATH = /^\/api\/patterns\/((?:FIX-)?[0-9a-f]{4,12})\/(approve|reject|undo)$/;

const listQuery = z.object({ state: z.optional(z.string().check(z.maxLength(20))) });
const decisionBody = z.object({ reason: z.optional(z.string().check(z.maxLength(500))) });

const namespaceOf = ({ cairn }: RouteContext) => ({ namespace: cairn.settings.memory.namespace });

/**
 * A person's decision on a fix pattern, as `cairn history approve|deprecate`
 * makes it: approve verifies it and promotes it to an approved unit, reject
 * deprecates it, undo makes it a candidate again.
 */
async function decide(context: RouteContext) {
  const { cairn, params } = context;
  const [id, decision] = params as [string, 'approve' | 'reject' | 'undo'];
  const { reason } = parseInput(decisionBody, context.body ?? {}, 'decision');
  const options = { ...namespaceOf(context), ...(reason ? { reason } : {}) };
  if (decision === 'approve') return approveAndPromoteFixPattern(cairn.rootDir, cairn, id, options);
  if (decision === 'reject') return { pattern: deprecateFixPattern(cairn.rootDir, id, options) };
  return { pattern: reopenFixPattern(cairn.rootDir, id, options) };
}

export const patternRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/patterns$/,
    handle: (context) => {
      const { state } = parseInput(listQuery, queryObject(context.query), 'pattern filter');
      return {
        patterns: listFixPatterns(context.cairn.rootDir, {
          ...namespaceOf(context),
          ...(state ? { state: checkFixPatternState(state) } : {}),
        }),
      };
    },
  },
  {
    method: 'GET',
    path: PATTERN_PATH,
    handle: (context) =>
      getFixPattern(context.cairn.rootDir, context.params[0]!, namespaceOf(context)),
  },
  { method: 'POST', path: DECISION_PATH, handle: decide },
];
