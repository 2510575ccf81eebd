import { useState } from 'preact/hooks';
import { apiSend, query } from '../api';
import { act } from '../notice';
import type { Unit } from '../types';
import { useApi } from '../use-api';
import type { ViewProps } from '../view-props';
import { ErrorLine } from './error-line';

const CATEGORIES = ['preference', 'fact', 'decision', 'entity', 'other'];
const REVIEWS = ['draft', 'approved', 'deprecated'];

function Select(props: {
  label: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">any</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

function AddForm({ notify, reload }: ViewProps & { reload: () => void }) {
  const [text, setText] = useState('');
  const [category, setCategory] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    void act(
      notify,
      async () => {
        const result = await apiSend<{ action: string; existing?: { memoryId: string } }>(
          'POST',
          '/api/units',
          {
            text,
            ...(category ? { category } : {}),
          },
        );
        if (result.action === 'duplicate')
          throw new Error(`duplicate of ${result.existing?.memoryId}: nothing written`);
      },
      'Unit added.',
      () => {
        setText('');
        reload();
      },
    );
  };
  return (
    <form class="add" onSubmit={submit} aria-label="Add a unit">
      <label>
        New unit{' '}
        <textarea
          value={text}
          rows={2}
          onInput={(event) => setText(event.currentTarget.value)}
          required
        />
      </label>
      <Select label="Category" value={category} options={CATEGORIES} onChange={setCategory} />
      <button type="submit">Add</button>
    </form>
  );
}

function UnitRow({ unit, notify, reload }: ViewProps & { unit: Unit; reload: () => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(unit.text);
  const id = encodeURIComponent(unit.memoryId);
  const setReview = (review: string) =>
    act(
      notify,
      () => apiSend('POST', `/api/units/${id}/review`, { review }),
      `${unit.memoryId} is ${review}.`,
      reload,
      () => apiSend('POST', `/api/units/${id}/review`, { review: unit.review }),
    );
  const save = (event: Event) => {
    event.preventDefault();
    void act(
      notify,
      () => apiSend('PUT', `/api/units/${id}`, { text }),
      `${unit.memoryId} replaced (same id).`,
      () => {
        setEditing(false);
        reload();
      },
    );
  };
  const remove = () => {
    if (!confirm(`Remove ${unit.memoryId}? Its text leaves the markdown.`)) return;
    void act(
      notify,
      () => apiSend('DELETE', `/api/units/${id}`),
      `${unit.memoryId} removed.`,
      reload,
    );
  };
  return (
    <tr data-id={unit.memoryId}>
      <td>
        <code title={unit.memoryId}>{unit.memoryId.slice(5, 13)}</code>
        <div class="meta">
          {unit.path}:{unit.startLine}
        </div>
      </td>
      <td>{unit.category}</td>
      <td>
        <span class={`badge ${unit.review}`}>{unit.review}</span>
        {unit.staleness && unit.staleness !== 'fresh' ? (
          <span class="badge stale">{unit.staleness}</span>
        ) : null}
      </td>
      <td class="text">
        {editing ? (
          <form onSubmit={save} aria-label={`Edit ${unit.memoryId}`}>
            <textarea
              value={text}
              rows={3}
              onInput={(event) => setText(event.currentTarget.value)}
            />
            <button type="submit">Save</button>{' '}
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        ) : (
          unit.text
        )}
      </td>
      <td class="actions">
        {editing ? null : (
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {unit.review !== 'approved' ? (
          <button type="button" onClick={() => void setReview('approved')}>
            Approve
          </button>
        ) : null}
        {unit.review !== 'deprecated' ? (
          <button type="button" onClick={() => void setReview('deprecated')}>
            Deprecate
          </button>
        ) : null}
        <button type="button" class="danger" onClick={remove}>
          Remove
        </button>
      </td>
    </tr>
  );
}

export function UnitsView({ notify }: ViewProps) {
  const [filter, setFilter] = useState({ q: '', category: '', review: '', stale: '' });
  const path = `/api/units${query(filter)}`;
  const { data, error, reload } = useApi<{ total: number; units: Unit[] }>(path);
  const set = (key: keyof typeof filter) => (value: string) =>
    setFilter({ ...filter, [key]: value });
  return (
    <section>
      <AddForm notify={notify} reload={reload} />
      <form class="filters" aria-label="Filter units" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search{' '}
          <input
            type="search"
            value={filter.q}
            onInput={(event) => set('q')(event.currentTarget.value)}
          />
        </label>
        <Select
          label="Category"
          value={filter.category}
          options={CATEGORIES}
          onChange={set('category')}
        />
        <Select label="Review" value={filter.review} options={REVIEWS} onChange={set('review')} />
        <Select
          label="Staleness"
          value={filter.stale}
          options={['stale', 'fresh']}
          onChange={set('stale')}
        />
      </form>
      {error ? <ErrorLine error={error} /> : null}
      {data ? (
        <>
          <p class="meta">
            {data.total} units
            {data.total > data.units.length ? ` (first ${data.units.length} shown)` : ''}
          </p>
          <table class="units">
            <thead>
              <tr>
                <th>Id</th>
                <th>Category</th>
                <th>Review</th>
                <th>Text</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.units.map((unit) => (
                <UnitRow
                  key={`${unit.memoryId}:${unit.updatedAt}`}
                  unit={unit}
                  notify={notify}
                  reload={reload}
                />
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
