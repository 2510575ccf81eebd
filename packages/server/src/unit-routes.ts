import {
  CairnError,
  MEMORY_CATEGORIES,
  parseInput,
  REVIEW_STATES,
  type ReviewState,
} from '@cairn/core';
import type { MemoryRecord } from '@cairn/engine';
import * as z from 'zod/mini';
import { queryObject, type Route, type RouteContext } from './route';

const UNIT_PATH = /^\/api\/units\/((?:UNIT:)?[0-9a-fA-F-]{4,36})$/;

const listQuery = z.object({
  q: z.optional(z.string().check(z.maxLength(500))),
  category: z.optional(z.enum(MEMORY_CATEGORIES)),
  review: z.optional(z.enum(REVIEW_STATES)),
  stale: z.optional(z.enum(['stale', 'fresh'])),
  limit: z.optional(z.string().check(z.regex(/^\d{1,5}$/))),
});

const addBody = z.object({
  text: z.string(),
  category: z.optional(z.enum(MEMORY_CATEGORIES)),
  review: z.optional(z.enum(REVIEW_STATES)),
});
const replaceBody = z.object({ text: z.string() });
const reviewBody = z.object({ review: z.enum(REVIEW_STATES) });

/** The unit store's failed results as typed errors; duplicates and successes pass through. */
function unitResult<T extends { action: string }>(result: T): T {
  if (result.action !== 'failed') return result;
  const { error, message } = result as unknown as { error: string; message: string };
  const code =
    error === 'not_found'
      ? 'NOT_FOUND'
      : error === 'conflict'
        ? 'CONFLICT'
        : error === 'write_failed'
          ? 'WRITE_FAILED'
          : 'INVALID_INPUT';
  throw new CairnError(code, message, { details: { unitError: error.toUpperCase() } });
}

/** The units, filtered like `cairn list` plus a text filter and the staleness the maintenance seam reports. */
async function listUnits({ cairn, maintenance, query }: RouteContext) {
  const filter = parseInput(listQuery, queryObject(query), 'unit filter');
  const [units, stale] = await Promise.all([
    cairn.list({
      ...(filter.category ? { category: filter.category } : {}),
      ...(filter.review ? { review: filter.review } : {}),
    }),
    maintenance.staleUnits(),
  ]);
  const staleById = new Map(stale.map((unit) => [unit.memoryId, unit.state]));
  const needle = filter.q?.trim().toLowerCase();
  const limit = Math.min(Number(filter.limit ?? 500), 5000);
  const matching = units.filter(
    (unit: MemoryRecord) =>
      unit.kind === 'UNIT' &&
      (!needle || unit.text.toLowerCase().includes(needle) || unit.memoryId.includes(needle)) &&
      (!filter.stale || (filter.stale === 'stale') === staleById.has(unit.memoryId)),
  );
  return {
    total: matching.length,
    units: matching.slice(0, limit).map((unit) => ({
      ...unit,
      staleness: staleById.get(unit.memoryId) ?? 'fresh',
    })),
  };
}

async function setReview({ cairn, params, body }: RouteContext) {
  const { review } = parseInput(reviewBody, body, 'review change');
  return unitResult(await cairn.setReview(params[0]!, review as ReviewState));
}

export const unitRoutes: Route[] = [
  { method: 'GET', path: /^\/api\/units$/, handle: listUnits },
  {
    method: 'POST',
    path: /^\/api\/units$/,
    handle: async ({ cairn, body }) => {
      const input = parseInput(addBody, body, 'new unit');
      return unitResult(await cairn.add({ ...input, source: 'dashboard' }));
    },
  },
  { method: 'GET', path: UNIT_PATH, handle: ({ cairn, params }) => cairn.get(params[0]!) },
  {
    method: 'PUT',
    path: UNIT_PATH,
    handle: async ({ cairn, params, body }) =>
      unitResult(await cairn.replace(params[0]!, parseInput(replaceBody, body, 'unit text').text)),
  },
  {
    method: 'DELETE',
    path: UNIT_PATH,
    handle: async ({ cairn, params }) => unitResult(await cairn.remove(params[0]!)),
  },
  {
    method: 'POST',
    path: /^\/api\/units\/((?:UNIT:)?[0-9a-fA-F-]{4,36})\/review$/,
    handle: setReview,
  },
];
