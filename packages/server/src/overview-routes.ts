import { listMemoryFiles, parseInput } from '@cairn/core';
import {
  type InjectionReceipt,
  lastPackReceipts,
  listFixPatterns,
  type MemoryRecord,
  VERSION,
} from '@cairn/engine';
import * as z from 'zod/mini';
import type { Route, RouteContext } from './route';

/** Units and their characters by creation day, running totals: the memory's growth. */
export function memoryGrowth(units: readonly MemoryRecord[]) {
  const byDay = new Map<string, { units: number; chars: number }>();
  for (const unit of units) {
    if (unit.kind !== 'UNIT' || !unit.createdAt) continue;
    const day = unit.createdAt.slice(0, 10);
    const entry = byDay.get(day) ?? { units: 0, chars: 0 };
    entry.units += 1;
    entry.chars += unit.text.length;
    byDay.set(day, entry);
  }
  let total = 0;
  let chars = 0;
  return [...byDay.keys()].sort().map((day) => {
    total += byDay.get(day)!.units;
    chars += byDay.get(day)!.chars;
    return { day, units: total, chars };
  });
}

/** Tokens each plane used in each stored injection, oldest first. */
export function tokensPerTurn(receipts: readonly InjectionReceipt[]) {
  return [...receipts].reverse().map((receipt) => ({
    receiptId: receipt.receiptId,
    at: receipt.at,
    event: receipt.event,
    sessionKey: receipt.sessionKey,
    tokens: receipt.tokens,
    budgetTokens: receipt.budgetTokens,
    planes: Object.fromEntries(
      receipt.pack.budget.planes.map((plane) => [plane.plane, plane.used]),
    ),
  }));
}

async function overview({ cairn, maintenance }: RouteContext) {
  const [units, files, proposals, stale] = await Promise.all([
    cairn.list(),
    listMemoryFiles(cairn.rootDir),
    maintenance.proposals(),
    maintenance.staleUnits(),
  ]);
  const managed = units.filter((unit) => unit.kind === 'UNIT');
  const patterns = listFixPatterns(cairn.rootDir, { namespace: cairn.settings.memory.namespace });
  const receipts = lastPackReceipts(cairn.rootDir, { limit: 50 });
  return {
    version: VERSION,
    rootDir: cairn.rootDir,
    backend: { type: cairn.backend.type, writable: cairn.backend.capabilities.writable },
    warnings: cairn.warnings,
    counts: {
      units: managed.length,
      drafts: managed.filter((unit) => unit.review === 'draft').length,
      files: files.length,
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      patterns: patterns.length,
      receipts: receipts.length,
      proposals: proposals.length,
      stale: stale.length,
    },
    maintenance: maintenance.available,
    growth: memoryGrowth(managed),
    turns: tokensPerTurn(receipts),
    outcomes: patterns.map(({ id, state, applied, succeeded, failed }) => ({
      id,
      state,
      applied,
      succeeded,
      failed,
    })),
  };
}

const proposalDecision = z.object({});

/** Drafts the inbox lists at once, oldest first: a year of promotions can hold thousands. */
export const INBOX_DRAFTS = 200;

export const overviewRoutes: Route[] = [
  { method: 'GET', path: /^\/api\/overview$/, handle: overview },
  {
    method: 'GET',
    path: /^\/api\/review$/,
    handle: async ({ cairn, maintenance }) => {
      const [drafts, proposals, stale] = await Promise.all([
        cairn.list({ review: 'draft' }),
        maintenance.proposals(),
        maintenance.staleUnits(),
      ]);
      const namespace = cairn.settings.memory.namespace;
      const units = drafts.filter((unit) => unit.kind === 'UNIT');
      return {
        drafts: units.slice(0, INBOX_DRAFTS),
        draftsTotal: units.length,
        proposals,
        stale,
        maintenance: maintenance.available,
        patterns: listFixPatterns(cairn.rootDir, { namespace, state: 'candidate' }),
      };
    },
  },
  {
    method: 'POST',
    path: /^\/api\/review\/proposals\/([A-Za-z0-9:_-]{1,100})\/(approve|reject|undo)$/,
    handle: ({ maintenance, params, body }) => {
      parseInput(proposalDecision, body ?? {}, 'decision');
      return maintenance.decide(params[0]!, params[1] as 'approve' | 'reject' | 'undo');
    },
  },
  {
    method: 'GET',
    path: /^\/api\/doctor$/,
    handle: async ({ cairn }) => ({ report: await cairn.doctor(), health: cairn.workingHealth() }),
  },
];
