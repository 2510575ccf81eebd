import { useEffect, useState } from 'preact/hooks';
import { apiSend, query } from '../api';
import { bytes, when } from '../format';
import { act } from '../notice';
import { useApi } from '../use-api';
import type { ViewProps } from '../view-props';
import { ErrorLine } from './error-line';

interface FileRow {
  path: string;
  bytes: number;
  mtimeMs: number;
  editable: boolean;
}

interface FileView {
  path: string;
  content: string;
  hash: string;
  editable: boolean;
  managedRegions: number;
}

function Editor({ path, notify, onSaved }: ViewProps & { path: string; onSaved: () => void }) {
  const { data, error, reload } = useApi<FileView>(`/api/memory/file${query({ path })}`);
  const [text, setText] = useState('');
  useEffect(() => setText(data?.content ?? ''), [data]);
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  const save = (event: Event) => {
    event.preventDefault();
    void act(
      notify,
      () => apiSend('PUT', '/api/memory/file', { path, content: text, baseHash: data.hash }),
      `${path} saved.`,
      () => {
        reload();
        onSaved();
      },
    );
  };
  return (
    <form class="editor" onSubmit={save} aria-label={`Edit ${path}`}>
      <h2>{path}</h2>
      <p class="meta">
        {data.managedRegions} regions between cairn markers: they are Cairn's and must stay as they
        are (edit units in the Units view).
        {data.editable ? '' : ' This file is not edited by hand here.'}
      </p>
      <label class="sr-only" for="file-text">
        Text of {path}
      </label>
      <textarea
        id="file-text"
        value={text}
        rows={24}
        spellcheck={false}
        readOnly={!data.editable}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      {data.editable ? <button type="submit">Save</button> : null}
    </form>
  );
}

export function FilesView({ notify }: ViewProps) {
  const { data, error, reload } = useApi<{ files: FileRow[] }>('/api/memory/files');
  const [open, setOpen] = useState<string | undefined>(undefined);
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  return (
    <section class="files">
      <ul class="file-list" aria-label="Workspace files">
        {data.files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              class="link"
              aria-current={open === file.path ? 'true' : undefined}
              onClick={() => setOpen(file.path)}
            >
              {file.path}
            </button>{' '}
            <span class="meta">
              {bytes(file.bytes)} · {when(new Date(file.mtimeMs).toISOString())}
              {file.editable ? '' : ' · read-only'}
            </span>
          </li>
        ))}
      </ul>
      {open ? (
        <Editor key={open} path={open} notify={notify} onSaved={reload} />
      ) : (
        <p class="empty">Choose a file to read or edit.</p>
      )}
    </section>
  );
}
