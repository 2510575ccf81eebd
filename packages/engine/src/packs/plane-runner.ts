import { CairnError, isUnsafePathError, monotonicMs } from '@cairn/core';
import type { PackInput } from './compose-pack';
import type { PackExclusion, PackPlane } from './pack-types';

/** What one plane gathered before the budget. */
export interface PlaneYield {
  candidates: PackInput[];
  /** Considered and left out by the plane itself (e.g. other threads). */
  excluded?: PackExclusion[];
  /** Something the user should hear about the plane (no thread given, no Beads export). */
  note?: string;
}

export type PlaneGatherer = () => Promise<PlaneYield> | PlaneYield;

/** Seed 004 §7: each plane says whether it ran, and why not. */
export interface PlaneReport {
  plane: PackPlane;
  status: 'ok' | 'off' | 'failed';
  reason?: string;
  /** Wall time the plane took, in ms (0 when off). */
  ms: number;
  /** Candidates it gathered. */
  candidates: number;
}

/**
 * The time budget of each plane, in ms, when the caller gives none. A plane
 * past it contributes nothing and is reported `failed`. Synchronous work
 * (SQLite reads) cannot be interrupted: it is measured and dropped after.
 */
export const PLANE_TIMEOUT_MS = 2000;

class PlaneTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PlaneTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one plane inside its time budget. With `failOpen` a plane that
 * throws or runs late yields nothing and is reported `failed`; without it
 * the error is thrown as a CairnError (a CairnError from the plane as is,
 * anything else as BACKEND_UNAVAILABLE naming the plane). A link under
 * `.cairn/` is thrown either way: a project that ships one gets no pack
 * at all (a hook injects nothing), not a pack built around it.
 */
export async function runPlane(
  plane: PackPlane,
  gather: PlaneGatherer,
  options: { timeoutMs: number; failOpen: boolean },
): Promise<{ report: PlaneReport; yield: PlaneYield }> {
  const started = monotonicMs();
  const elapsed = () => Math.round(monotonicMs() - started);
  try {
    const result = await withTimeout(Promise.resolve().then(gather), options.timeoutMs);
    if (elapsed() > options.timeoutMs) throw new PlaneTimeout();
    const report: PlaneReport = {
      plane,
      status: 'ok',
      ms: elapsed(),
      candidates: result.candidates.length,
      ...(result.note ? { reason: result.note } : {}),
    };
    return { report, yield: result };
  } catch (error) {
    if (isUnsafePathError(error)) throw error;
    const late = error instanceof PlaneTimeout;
    const reason = late
      ? `exceeded its time budget of ${options.timeoutMs} ms`
      : `threw: ${message(error)}`;
    if (!options.failOpen) {
      if (CairnError.isInstance(error)) throw error;
      throw new CairnError(
        'BACKEND_UNAVAILABLE',
        `The ${plane} plane of the context pack ${reason}`,
        {
          ...(late ? {} : { cause: error }),
          hint: 'set memory.failOpen to true to build the pack without it, or switch the plane off',
          details: { plane, timeoutMs: options.timeoutMs },
        },
      );
    }
    return {
      report: { plane, status: 'failed', reason, ms: elapsed(), candidates: 0 },
      yield: { candidates: [] },
    };
  }
}
