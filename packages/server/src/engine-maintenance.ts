import { CairnError } from '@cairn/core';
import { type Cairn, openMaintenance } from '@cairn/engine';
import type { ConsolidationProposal, MaintenanceSource, StaleUnit } from './maintenance-source';

/**
 * The engine's maintenance (docs/MAINTENANCE.md) behind the dashboard's
 * seam: open proposals with their diffs, decisions taken `by: dashboard`,
 * and the units whose cited code moved, changed or is gone. A decision on
 * a proposal whose units changed since is a CONFLICT (409): nothing was
 * written, and the next extraction run proposes it again.
 */
export function engineMaintenance(cairn: Cairn): MaintenanceSource {
  const maintenance = openMaintenance(cairn);
  const shown = (p: Awaited<ReturnType<typeof maintenance.proposal>>): ConsolidationProposal => ({
    id: p.id,
    kind: p.kind,
    unitIds: p.unitIds,
    summary: p.summary,
    before: p.before,
    after: p.after,
    evidence: p.evidence,
    state: p.state,
    createdAt: p.createdAt,
  });
  return {
    available: true,
    proposals: async () => (await maintenance.proposals()).map(shown),
    staleUnits: async (): Promise<StaleUnit[]> =>
      (await maintenance.staleUnits()).map((unit) => ({
        memoryId: unit.memoryId,
        state: unit.state,
        anchor: {
          path: unit.anchor.path,
          ...(unit.anchor.symbol ? { symbol: unit.anchor.symbol } : {}),
        },
        checkedAt: unit.checkedAt,
      })),
    async decide(proposalId, decision) {
      const result = await maintenance[decision](proposalId, { by: 'dashboard' });
      if (result.outcome === 'conflict') {
        throw new CairnError('CONFLICT', result.message, {
          hint: 'a unit changed since this was proposed; nothing was written. The next `cairn insights run` proposes it again',
        });
      }
      return shown(result.proposal);
    },
  };
}
