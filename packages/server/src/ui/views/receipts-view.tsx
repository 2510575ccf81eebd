import { when } from '../format';
import { PLANE_COLORS } from '../plots';
import type { Receipt } from '../types';
import { useApi } from '../use-api';
import { ErrorLine } from './error-line';

function PlaneBar({ receipt }: { receipt: Receipt }) {
  const total = Math.max(receipt.budgetTokens, 1);
  return (
    <span
      class="plane-bar"
      role="img"
      aria-label={receipt.pack.budget.planes.map((p) => `${p.plane} ${p.used}`).join(', ')}
    >
      {receipt.pack.budget.planes.map((plane) => (
        <i
          key={plane.plane}
          title={`${plane.plane}: ${plane.used} tokens`}
          style={{
            width: `${(plane.used / total) * 100}%`,
            background: PLANE_COLORS[plane.plane] ?? '#888',
          }}
        />
      ))}
    </span>
  );
}

function Turn({ receipt }: { receipt: Receipt }) {
  const { pack } = receipt;
  return (
    <li class="turn">
      <details>
        <summary>
          <span class="when">{when(receipt.at)}</span> <strong>{receipt.event}</strong> ·{' '}
          {receipt.tokens} / {receipt.budgetTokens} tokens · {pack.items.length} in,{' '}
          {pack.excluded.length} left out <PlaneBar receipt={receipt} />
        </summary>
        {pack.query ? <p class="meta">Query: {pack.query}</p> : null}
        <p class="meta">
          Tokens by plane:{' '}
          {pack.budget.planes
            .map((plane) => `${plane.plane} ${plane.used} of ${plane.share}`)
            .join(' · ')}
        </p>
        <p class="meta">
          Planes:{' '}
          {pack.planes
            .map(
              (plane) =>
                `${plane.plane} ${plane.status}${plane.reason ? ` (${plane.reason})` : ''}`,
            )
            .join(' · ')}
        </p>
        <table>
          <caption>What the injection held</caption>
          <thead>
            <tr>
              <th>Plane</th>
              <th>Trust</th>
              <th>Tokens</th>
              <th>Why</th>
              <th>Text</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {pack.items.map((item) => (
              <tr key={item.id}>
                <td>{item.plane}</td>
                <td>{item.trustClass}</td>
                <td>{item.tokenCost}</td>
                <td>{item.why}</td>
                <td>{item.text}</td>
                <td>
                  <code>
                    {item.provenance.file
                      ? `${item.provenance.file}:${item.provenance.line ?? ''}`
                      : item.provenance.id}
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {pack.excluded.length ? (
          <table>
            <caption>What it left out, and why</caption>
            <thead>
              <tr>
                <th>Id</th>
                <th>Plane</th>
                <th>Reason</th>
                <th>Tokens</th>
              </tr>
            </thead>
            <tbody>
              {pack.excluded.map((item) => (
                <tr key={`${item.id}-${item.reason}`}>
                  <td>
                    <code>{item.id}</code>
                  </td>
                  <td>{item.plane}</td>
                  <td>
                    {item.reason}
                    {item.duplicateOf ? ` of ${item.duplicateOf}` : ''}
                  </td>
                  <td>{item.tokenCost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </details>
    </li>
  );
}

export function ReceiptsView() {
  const { data, error } = useApi<{ receipts: Receipt[] }>('/api/receipts');
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  if (data.receipts.length === 0)
    return (
      <p class="empty">
        No injections recorded yet: the hooks store a receipt for each pack they inject.
      </p>
    );
  const sessions = new Map<string, Receipt[]>();
  for (const receipt of [...data.receipts].reverse()) {
    const key = `${receipt.agentId} / ${receipt.sessionKey}`;
    sessions.set(key, [...(sessions.get(key) ?? []), receipt]);
  }
  return (
    <section>
      {[...sessions].map(([session, turns]) => (
        <article key={session} class="session">
          <h2>{session}</h2>
          <p class="meta">
            Thread {turns[0]!.threadKey} · {turns.length} injections
          </p>
          <ol class="timeline">
            {turns.map((receipt) => (
              <Turn key={receipt.receiptId} receipt={receipt} />
            ))}
          </ol>
        </article>
      ))}
    </section>
  );
}
