import { bytes } from '../format';
import { LinePlot, PLANE_COLORS, StackedBars } from '../plots';
import { useApi } from '../use-api';
import { ErrorLine } from './error-line';

interface Overview {
  rootDir: string;
  version: string;
  backend: { type: string; writable: boolean };
  warnings: string[];
  counts: Record<string, number>;
  maintenance: boolean;
  growth: { day: string; units: number; chars: number }[];
  turns: { receiptId: string; at: string; event: string; planes: Record<string, number> }[];
  outcomes: { id: string; succeeded: number; failed: number; applied: number }[];
}

export const OUTCOME_COLORS = {
  succeeded: '#2f7d5b',
  failed: '#b63d3d',
  'shown, no outcome': '#9aa3ad',
};

export function outcomeBars(outcomes: Overview['outcomes']) {
  return outcomes.map((pattern) => ({
    label: pattern.id,
    parts: {
      succeeded: pattern.succeeded,
      failed: pattern.failed,
      'shown, no outcome': Math.max(0, pattern.applied - pattern.succeeded - pattern.failed),
    },
  }));
}

export function OverviewView() {
  const { data, error } = useApi<Overview>('/api/overview');
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  const { counts } = data;
  return (
    <section>
      <p class="project">
        <code>{data.rootDir}</code> · backend <strong>{data.backend.type}</strong>
        {data.backend.writable ? '' : ' (read-only: every write is refused with READ_ONLY)'} · Cairn{' '}
        {data.version}
      </p>
      {data.warnings.length ? (
        <ul class="warnings">
          {data.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      <dl class="counts">
        <div>
          <dt>Units</dt>
          <dd>{counts.units}</dd>
        </div>
        <div>
          <dt>Drafts to review</dt>
          <dd>
            <a href="#/review">{counts.drafts}</a>
          </dd>
        </div>
        <div>
          <dt>Workspace files</dt>
          <dd>
            {counts.files} ({bytes(counts.bytes ?? 0)})
          </dd>
        </div>
        <div>
          <dt>Fix patterns</dt>
          <dd>{counts.patterns}</dd>
        </div>
        <div>
          <dt>Stored receipts</dt>
          <dd>{counts.receipts}</dd>
        </div>
        <div>
          <dt>Proposals / stale</dt>
          <dd>{data.maintenance ? `${counts.proposals} / ${counts.stale}` : 'not available'}</dd>
        </div>
      </dl>
      <div class="plots">
        <LinePlot
          title="Memory size over time (units)"
          unit="units"
          points={data.growth.map((day) => ({ x: day.day, y: day.units }))}
        />
        <StackedBars
          title="Injected tokens per turn, by plane"
          unit="tokens"
          colors={PLANE_COLORS}
          bars={data.turns.map((turn) => ({
            label: `${turn.at} ${turn.event}`,
            parts: turn.planes,
          }))}
        />
        <StackedBars
          title="Fix-pattern outcomes"
          unit="runs"
          colors={OUTCOME_COLORS}
          bars={outcomeBars(data.outcomes)}
        />
      </div>
    </section>
  );
}
