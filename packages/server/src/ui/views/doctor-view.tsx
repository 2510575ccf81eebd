import { bytes } from '../format';
import { useApi } from '../use-api';
import { ErrorLine } from './error-line';

interface Doctor {
  report: {
    ok: boolean;
    issues: { path: string; line: number; kind: string; message: string }[];
    findings: { area: string; severity: string; path?: string; message: string; fix: string }[];
    stores: { store: string; path: string; bytes: number; files: number }[];
    files: number;
    units: number;
  };
  health: {
    failures: { event: string; at: string; code: string; message: string }[];
    pending: unknown[];
    headsError?: string;
  };
}

export function DoctorView() {
  const { data, error } = useApi<Doctor>('/api/doctor');
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Running the checks…</p>;
  const { report, health } = data;
  return (
    <section>
      <p class={`verdict ${report.ok ? 'ok' : 'bad'}`}>
        {report.ok ? 'All checks pass.' : 'Something needs you: see below.'} {report.files} files,{' '}
        {report.units} units.
      </p>
      <h2>Findings ({report.findings.length})</h2>
      {report.findings.length === 0 ? (
        <p class="empty">No findings.</p>
      ) : (
        <ul class="findings">
          {report.findings.map((finding, i) => (
            <li key={i} class={finding.severity}>
              <span class={`badge ${finding.severity}`}>{finding.severity}</span>{' '}
              <strong>{finding.area}</strong> {finding.path ? <code>{finding.path}</code> : null}{' '}
              {finding.message}
              <div class="meta">{finding.fix}</div>
            </li>
          ))}
        </ul>
      )}
      <h2>Damaged regions ({report.issues.length})</h2>
      {report.issues.length === 0 ? (
        <p class="empty">None: every managed region parses.</p>
      ) : (
        <ul>
          {report.issues.map((issue) => (
            <li key={`${issue.path}:${issue.line}`}>
              <code>
                {issue.path}:{issue.line}
              </code>{' '}
              {issue.kind}: {issue.message}
            </li>
          ))}
        </ul>
      )}
      <h2>Stores</h2>
      <ul>
        {report.stores.map((store, i) => (
          <li key={i}>
            {store.store} <code>{store.path}</code>: {bytes(store.bytes)} in {store.files} files
          </li>
        ))}
      </ul>
      <h2>Working memory</h2>
      <p>
        {health.failures.length} recent lifecycle failures, {health.pending.length} deferred writes
        {health.headsError ? `; heads.db: ${health.headsError}` : ''}.
      </p>
      {health.failures.length ? (
        <ul>
          {health.failures.map((failure, i) => (
            <li key={i}>
              {failure.at} {failure.event}: <strong>{failure.code}</strong> {failure.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
