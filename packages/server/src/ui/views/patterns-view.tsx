import { useState } from 'preact/hooks';
import { apiSend, query } from '../api';
import { when } from '../format';
import { act } from '../notice';
import { StackedBars } from '../plots';
import type { FixPattern } from '../types';
import { useApi } from '../use-api';
import type { ViewProps } from '../view-props';
import { ErrorLine } from './error-line';
import { OUTCOME_COLORS, outcomeBars } from './overview-view';

function PatternDetail({ id }: { id: string }) {
  const { data, error } = useApi<FixPattern>(`/api/patterns/${id}`);
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  return (
    <div class="detail">
      <ol>
        {data.steps.map((step, i) => (
          <li key={i}>
            {step.kind}: {step.command ?? step.path ?? step.text ?? ''}
          </li>
        ))}
      </ol>
      <p class="meta">Evidence runs:</p>
      <ul>
        {(data.runs ?? []).map((run) => (
          <li key={`${run.sessionKey}-${run.role}-${run.at}`}>
            {run.role} · {run.agentId}/{run.sessionKey} · {when(run.at)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PatternsView({ notify }: ViewProps) {
  const [state, setState] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const { data, error, reload } = useApi<{ patterns: FixPattern[] }>(
    `/api/patterns${query({ state })}`,
  );
  const decide = (pattern: FixPattern, decision: 'approve' | 'reject' | 'undo') =>
    void act(
      notify,
      () => apiSend('POST', `/api/patterns/${pattern.id}/${decision}`, {}),
      `${pattern.id}: ${decision === 'undo' ? 'a candidate again' : `${decision}d`}.`,
      reload,
      decision === 'undo'
        ? undefined
        : () => apiSend('POST', `/api/patterns/${pattern.id}/undo`, {}),
    );
  return (
    <section>
      <label>
        State{' '}
        <select value={state} onChange={(event) => setState(event.currentTarget.value)}>
          <option value="">any</option>
          <option value="candidate">candidate</option>
          <option value="verified">verified</option>
          <option value="deprecated">deprecated</option>
        </select>
      </label>
      {error ? <ErrorLine error={error} /> : null}
      {data ? (
        <>
          <StackedBars
            title="Fix-pattern outcomes"
            unit="runs"
            colors={OUTCOME_COLORS}
            bars={outcomeBars(data.patterns)}
          />
          {data.patterns.length === 0 ? (
            <p class="empty">
              No fix patterns yet: they are learned when a failing command later succeeds in a
              session.
            </p>
          ) : (
            <table class="patterns">
              <thead>
                <tr>
                  <th>Id</th>
                  <th>State</th>
                  <th>Error</th>
                  <th>Outcomes</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.patterns.map((pattern) => (
                  <>
                    <tr key={pattern.id} data-id={pattern.id}>
                      <td>
                        <button
                          type="button"
                          class="link"
                          aria-expanded={open === pattern.id}
                          onClick={() => setOpen(open === pattern.id ? undefined : pattern.id)}
                        >
                          {pattern.id}
                        </button>
                      </td>
                      <td>
                        <span class={`badge ${pattern.state}`}>{pattern.state}</span>
                        {pattern.reason ? <div class="meta">{pattern.reason}</div> : null}
                      </td>
                      <td>{pattern.normalized}</td>
                      <td>
                        applied {pattern.applied}, succeeded {pattern.succeeded}, failed{' '}
                        {pattern.failed}
                      </td>
                      <td class="actions">
                        {pattern.state !== 'verified' ? (
                          <button type="button" onClick={() => decide(pattern, 'approve')}>
                            Approve
                          </button>
                        ) : null}
                        {pattern.state !== 'deprecated' ? (
                          <button type="button" onClick={() => decide(pattern, 'reject')}>
                            Reject
                          </button>
                        ) : null}
                        {pattern.state !== 'candidate' ? (
                          <button type="button" onClick={() => decide(pattern, 'undo')}>
                            Reopen
                          </button>
                        ) : null}
                      </td>
                    </tr>
                    {open === pattern.id ? (
                      <tr key={`${pattern.id}-detail`}>
                        <td colSpan={5}>
                          <PatternDetail id={pattern.id} />
                        </td>
                      </tr>
                    ) : null}
                  </>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </section>
  );
}
