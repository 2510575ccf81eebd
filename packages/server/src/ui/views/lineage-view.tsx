import { useState } from 'preact/hooks';
import { query } from '../api';
import { when } from '../format';
import type { TemporalNode } from '../types';
import { useApi } from '../use-api';
import { ErrorLine } from './error-line';

interface Sessions {
  sessions: {
    agentId: string;
    sessionKey: string;
    nodes: number;
    firstAt: string;
    lastAt: string;
  }[];
  threads: {
    agentId: string;
    threadKey: string;
    status?: string;
    nextAction?: string;
    updatedAt: string;
  }[];
}

interface Expansion {
  node: TemporalNode;
  parents: TemporalNode[];
  children: TemporalNode[];
  siblings: TemporalNode[];
  thread: { threadKey: string; nodeCount: number };
  linkedUnits: string[];
  transcript: { entries: { seq: number; role: string; text: string; at?: string }[] } | null;
}

interface Selection {
  agent: string;
  node: string;
}

function NodeList({
  nodes,
  onOpen,
}: {
  nodes: TemporalNode[];
  onOpen: (node: TemporalNode) => void;
}) {
  if (nodes.length === 0) return <p class="empty">none</p>;
  return (
    <ul class="nodes">
      {nodes.map((node) => (
        <li key={node.id}>
          <button type="button" class="link" onClick={() => onOpen(node)}>
            {node.kind} {node.id.slice(5, 13)}
          </button>{' '}
          <span class="meta">{when(node.startAt)}</span>
          <p>{node.text.slice(0, 300)}</p>
        </li>
      ))}
    </ul>
  );
}

function NodeDetail({
  selection,
  open,
}: {
  selection: Selection;
  open: (node: TemporalNode) => void;
}) {
  const path = `/api/lineage/nodes/${encodeURIComponent(selection.node)}${query({ agent: selection.agent })}`;
  const { data, error } = useApi<Expansion>(path);
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  return (
    <article class="node" aria-label="Node detail">
      <h2>
        {data.node.kind} <code>{data.node.id}</code>
      </h2>
      <p class="meta">
        {data.node.agentId} · thread {data.thread.threadKey} ({data.thread.nodeCount} nodes) ·{' '}
        {when(data.node.startAt)} – {when(data.node.endAt)} · by {data.node.source}
      </p>
      <pre class="text">{data.node.text}</pre>
      {data.linkedUnits.length ? (
        <p>
          Linked units:{' '}
          {data.linkedUnits.map((id) => (
            <code key={id}>{id} </code>
          ))}
        </p>
      ) : null}
      <h3>Parents</h3>
      <NodeList nodes={data.parents} onOpen={open} />
      <h3>Children</h3>
      <NodeList nodes={data.children} onOpen={open} />
      <h3>Siblings</h3>
      <NodeList nodes={data.siblings} onOpen={open} />
      <h3>Transcript excerpt</h3>
      {data.transcript?.entries.length ? (
        <ol class="transcript">
          {data.transcript.entries.map((entry) => (
            <li key={entry.seq}>
              <strong>{entry.role}</strong> {entry.text}
            </li>
          ))}
        </ol>
      ) : (
        <p class="empty">No transcript entries for this node.</p>
      )}
    </article>
  );
}

function SessionNodes({
  agent,
  session,
  open,
}: {
  agent: string;
  session: string;
  open: (node: TemporalNode) => void;
}) {
  const { data, error } = useApi<{ nodes: TemporalNode[] }>(
    `/api/lineage/session${query({ agent, session })}`,
  );
  if (error) return <ErrorLine error={error} />;
  return data ? <NodeList nodes={data.nodes} onOpen={open} /> : <p class="loading">Loading…</p>;
}

export function LineageView() {
  const { data, error } = useApi<Sessions>('/api/lineage/sessions');
  const [session, setSession] = useState<{ agent: string; session: string } | undefined>(undefined);
  const [selection, setSelection] = useState<Selection | undefined>(undefined);
  const [agent, setAgent] = useState('');
  const [nodeId, setNodeId] = useState('');
  const open = (node: TemporalNode) => setSelection({ agent: node.agentId, node: node.id });
  if (error) return <ErrorLine error={error} />;
  if (!data) return <p class="loading">Loading…</p>;
  return (
    <section class="lineage">
      <form
        class="filters"
        aria-label="Open a node by id"
        onSubmit={(event) => {
          event.preventDefault();
          setSelection({ agent, node: nodeId.trim() });
        }}
      >
        <label>
          Node id{' '}
          <input
            value={nodeId}
            placeholder="node:…"
            onInput={(event) => setNodeId(event.currentTarget.value)}
            required
          />
        </label>
        <label>
          Agent{' '}
          <input
            value={agent}
            placeholder="claude-code"
            onInput={(event) => setAgent(event.currentTarget.value)}
            required
          />
        </label>
        <button type="submit">Open</button>
      </form>
      {selection ? (
        <NodeDetail
          key={`${selection.agent}:${selection.node}`}
          selection={selection}
          open={open}
        />
      ) : null}
      <h2>Sessions ({data.sessions.length})</h2>
      {data.sessions.length === 0 ? (
        <p class="empty">No lineage yet: the hooks record sessions as agents work.</p>
      ) : (
        <ul class="sessions">
          {data.sessions.map((row) => (
            <li key={`${row.agentId}/${row.sessionKey}`}>
              <button
                type="button"
                class="link"
                aria-expanded={session?.session === row.sessionKey && session.agent === row.agentId}
                onClick={() => setSession({ agent: row.agentId, session: row.sessionKey })}
              >
                {row.agentId} / {row.sessionKey}
              </button>{' '}
              <span class="meta">
                {row.nodes} nodes · {when(row.firstAt)} – {when(row.lastAt)}
              </span>
              {session?.agent === row.agentId && session.session === row.sessionKey ? (
                <SessionNodes agent={row.agentId} session={row.sessionKey} open={open} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <h2>Threads ({data.threads.length})</h2>
      {data.threads.length === 0 ? (
        <p class="empty">No thread heads yet.</p>
      ) : (
        <ul>
          {data.threads.map((thread) => (
            <li key={`${thread.agentId}/${thread.threadKey}`}>
              <strong>
                {thread.agentId} / {thread.threadKey}
              </strong>{' '}
              <span class="meta">
                {thread.status ?? ''} · updated {when(thread.updatedAt)}
              </span>
              {thread.nextAction ? <p>Next: {thread.nextAction}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
