import { apiSend } from '../api';
import { lineDiff } from '../diff';
import { act } from '../notice';
import type { FixPattern, Proposal, StaleUnit, Unit } from '../types';
import { useApi } from '../use-api';
import type { ViewProps } from '../view-props';
import { ErrorLine } from './error-line';

interface Inbox {
  drafts: Unit[];
  draftsTotal: number;
  proposals: Proposal[];
  stale: StaleUnit[];
  patterns: FixPattern[];
  maintenance: boolean;
}

type Act = ViewProps & { reload: () => void };

function Drafts({ drafts, notify, reload }: Act & { drafts: Unit[] }) {
  if (drafts.length === 0) return <p class="empty">No drafts to review.</p>;
  const decide = (unit: Unit, review: 'approved' | 'deprecated') => {
    const path = `/api/units/${encodeURIComponent(unit.memoryId)}/review`;
    void act(
      notify,
      () => apiSend('POST', path, { review }),
      `${unit.memoryId} ${review === 'approved' ? 'approved' : 'rejected'}.`,
      reload,
      () => apiSend('POST', path, { review: 'draft' }),
    );
  };
  return (
    <ul class="cards">
      {drafts.map((unit) => (
        <li key={unit.memoryId} data-id={unit.memoryId}>
          <p>{unit.text}</p>
          <p class="meta">
            {unit.category} · {unit.path}:{unit.startLine}{' '}
            {unit.source ? `· from ${unit.source}` : ''}
          </p>
          <button type="button" onClick={() => decide(unit, 'approved')}>
            Approve
          </button>{' '}
          <button type="button" onClick={() => decide(unit, 'deprecated')}>
            Reject
          </button>
        </li>
      ))}
    </ul>
  );
}

function Proposals({ inbox, notify, reload }: Act & { inbox: Inbox }) {
  if (!inbox.maintenance)
    return <p class="empty">No proposals: consolidation is not available in this Cairn yet.</p>;
  if (inbox.proposals.length === 0) return <p class="empty">No proposals.</p>;
  const decide = (proposal: Proposal, decision: 'approve' | 'reject') =>
    void act(
      notify,
      () =>
        apiSend('POST', `/api/review/proposals/${encodeURIComponent(proposal.id)}/${decision}`, {}),
      `${proposal.id}: ${decision}d.`,
      reload,
      () => apiSend('POST', `/api/review/proposals/${encodeURIComponent(proposal.id)}/undo`, {}),
    );
  return (
    <ul class="cards">
      {inbox.proposals.map((proposal) => (
        <li key={proposal.id} data-id={proposal.id}>
          <p>
            <strong>{proposal.kind}</strong> {proposal.summary}
          </p>
          <pre class="diff">
            {lineDiff(proposal.before, proposal.after).map((line, i) => (
              <span
                key={i}
                class={line.kind}
              >{`${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '} ${line.text}\n`}</span>
            ))}
          </pre>
          <button type="button" onClick={() => decide(proposal, 'approve')}>
            Approve
          </button>{' '}
          <button type="button" onClick={() => decide(proposal, 'reject')}>
            Reject
          </button>
        </li>
      ))}
    </ul>
  );
}

export function PatternCards({ patterns, notify, reload }: Act & { patterns: FixPattern[] }) {
  if (patterns.length === 0) return <p class="empty">No candidate fix patterns.</p>;
  const decide = (pattern: FixPattern, decision: 'approve' | 'reject') =>
    void act(
      notify,
      () => apiSend('POST', `/api/patterns/${pattern.id}/${decision}`, {}),
      `${pattern.id}: ${decision === 'approve' ? 'approved' : 'rejected'}.`,
      reload,
      () => apiSend('POST', `/api/patterns/${pattern.id}/undo`, {}),
    );
  return (
    <ul class="cards">
      {patterns.map((pattern) => (
        <li key={pattern.id} data-id={pattern.id}>
          <p>
            <code>{pattern.id}</code> {pattern.normalized}
          </p>
          <p class="meta">
            Fix: {pattern.stepsKey} · applied {pattern.applied}, succeeded {pattern.succeeded},
            failed {pattern.failed}
          </p>
          <button type="button" onClick={() => decide(pattern, 'approve')}>
            Approve
          </button>{' '}
          <button type="button" onClick={() => decide(pattern, 'reject')}>
            Reject
          </button>
        </li>
      ))}
    </ul>
  );
}

export function ReviewView({ notify }: ViewProps) {
  const { data, error, reload } = useApi<Inbox>('/api/review');
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  return (
    <section>
      <h2>Drafts ({data.draftsTotal})</h2>
      {data.draftsTotal > data.drafts.length ? (
        <p class="meta">
          The oldest {data.drafts.length} are listed; the Units view filters all of them (Review:
          draft).
        </p>
      ) : null}
      <Drafts drafts={data.drafts} notify={notify} reload={reload} />
      <h2>Consolidation proposals</h2>
      <Proposals inbox={data} notify={notify} reload={reload} />
      <h2>Stale units</h2>
      {data.stale.length === 0 ? (
        <p class="empty">
          {data.maintenance
            ? 'No stale units.'
            : 'No stale units: staleness checks are not available in this Cairn yet.'}
        </p>
      ) : (
        <ul>
          {data.stale.map((unit) => (
            <li key={unit.memoryId}>
              <code>{unit.memoryId}</code> {unit.state}: {unit.anchor.path}
              {unit.anchor.symbol ? ` ${unit.anchor.symbol}` : ''}
            </li>
          ))}
        </ul>
      )}
      <h2>Fix patterns to judge ({data.patterns.length})</h2>
      <PatternCards patterns={data.patterns} notify={notify} reload={reload} />
    </section>
  );
}
