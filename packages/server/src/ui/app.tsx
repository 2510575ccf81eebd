import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, apiGet } from './api';
import { Notice, type NoticeState } from './notice';
import type { ViewProps } from './view-props';
import { DoctorView } from './views/doctor-view';
import { FilesView } from './views/files-view';
import { LineageView } from './views/lineage-view';
import { OverviewView } from './views/overview-view';
import { PatternsView } from './views/patterns-view';
import { ReceiptsView } from './views/receipts-view';
import { ReviewView } from './views/review-view';
import { UnitsView } from './views/units-view';

const VIEWS = [
  { id: 'overview', title: 'Overview', View: OverviewView },
  { id: 'units', title: 'Units', View: UnitsView },
  { id: 'review', title: 'Review inbox', View: ReviewView },
  { id: 'receipts', title: 'Receipts', View: ReceiptsView },
  { id: 'lineage', title: 'Lineage', View: LineageView },
  { id: 'patterns', title: 'Fix patterns', View: PatternsView },
  { id: 'doctor', title: 'Doctor', View: DoctorView },
  { id: 'files', title: 'Files', View: FilesView },
] as const;

function currentView(): string {
  const id = location.hash.replace(/^#\/?/, '').split('/')[0] ?? '';
  return VIEWS.some((view) => view.id === id) ? id : 'overview';
}

function SignedOut({ error }: { error: ApiError }) {
  return (
    <main class="signed-out">
      <h1>Cairn dashboard</h1>
      <p role="alert">
        {error.body.message}. {error.body.hint}
      </p>
    </main>
  );
}

export function App() {
  const [viewId, setViewId] = useState(currentView());
  const [signedIn, setSignedIn] = useState<boolean | ApiError>(false);
  const [notice, setNotice] = useState<NoticeState | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const onHash = () => {
      setViewId(currentView());
      setNotice(undefined);
    };
    addEventListener('hashchange', onHash);
    apiGet('/api/session').then(
      () => setSignedIn(true),
      (error: unknown) => setSignedIn(error instanceof ApiError ? error : false),
    );
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => heading.current?.focus(), [viewId]);
  if (signedIn instanceof ApiError) return <SignedOut error={signedIn} />;
  if (!signedIn) return <p class="loading">Signing in…</p>;
  const view = VIEWS.find((candidate) => candidate.id === viewId) ?? VIEWS[0];
  const props: ViewProps = { notify: setNotice };
  return (
    <div class="shell">
      <nav aria-label="Views">
        <p class="brand">Cairn</p>
        <ul>
          {VIEWS.map((item) => (
            <li key={item.id}>
              <a href={`#/${item.id}`} aria-current={item.id === view.id ? 'page' : undefined}>
                {item.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id={`view-${view.id}`}>
        <h1 ref={heading} tabIndex={-1}>
          {view.title}
        </h1>
        <Notice notice={notice} onClose={() => setNotice(undefined)} />
        <view.View {...props} />
      </main>
    </div>
  );
}
