import type { MemorySearchFilters } from '@cairn/core';
import type { MemoryRecord, SearchHit } from '@cairn/engine';
import type { CommandSpec } from '../command';
import { listFlag, stringFlag } from './text-input';

function recordLine(record: MemoryRecord): string {
  const meta = [record.category, record.review, record.createdAt].filter(Boolean).join(' ');
  const text = record.text.replace(/\s+/g, ' ');
  return `${record.memoryId}  ${record.path}:${record.startLine}${meta ? `  [${meta}]` : ''}\n  ${text.length > 200 ? `${text.slice(0, 199)}…` : text}`;
}

export const getCommand: CommandSpec = {
  name: 'get',
  summary: 'Show one memory by id (UNIT:<uuid>, a unique start of one, or RAW:<path>#L<a>-L<b>)',
  usage: 'cairn get <id> [--json]',
  options: {},
  positionals: { min: 1, max: 1 },
  async run(context) {
    const record = await (await context.open()).get(context.positionals[0]!);
    return { json: { ok: true, memory: record }, text: `${recordLine(record)}` };
  },
};

const filterOptions = {
  category: { type: 'string' },
  review: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  path: { type: 'string' },
} as const;

export const listCommand: CommandSpec = {
  name: 'list',
  summary: 'List managed units, oldest first',
  usage:
    'cairn list [--category C] [--review R] [--since DATE] [--until DATE] [--path PREFIX] [--json]',
  options: filterOptions,
  positionals: { min: 0, max: 0 },
  async run({ open, values }) {
    const filter = Object.fromEntries(
      Object.keys(filterOptions)
        .map((key) => [key, stringFlag(values[key])])
        .filter(([, value]) => value !== undefined),
    );
    const units = await (await open()).list(filter);
    return {
      json: { ok: true, units },
      text: units.length ? units.map(recordLine).join('\n') : '(no units)',
    };
  },
};

/** A hit: score, id, place, and for a unit its category and review state; then its snippet. */
function hitLines(hit: SearchHit): string {
  const meta = [hit.category, hit.review].filter(Boolean).join(', ');
  const id = hit.memoryId ?? hit.kind ?? 'RAW';
  return `${hit.score.toFixed(2)}  ${id}  ${hit.path}:${hit.startLine}${meta ? `  [${meta}]` : ''}\n  ${hit.snippet}`;
}

export const searchCommand: CommandSpec = {
  name: 'search',
  summary: 'Search units and notes; bounded snippets, best first',
  usage:
    'cairn search <query...> [--limit N] [--category a,b] [--kind UNIT|RAW] [--review a,b] [--since D] [--until D] [--path P] [--include-deprecated] [--json]',
  options: {
    ...filterOptions,
    limit: { type: 'string', number: 'integer', description: 'results at most (1-100)' },
    kind: { type: 'string' },
    'include-deprecated': { type: 'boolean' },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY },
  async run({ openSearch, values, positionals }) {
    const filters: Record<string, unknown> = {
      category: listFlag(values.category),
      kind: listFlag(values.kind),
      review: listFlag(values.review),
      since: stringFlag(values.since),
      until: stringFlag(values.until),
      path: stringFlag(values.path),
      includeDeprecated: values['include-deprecated'] === true ? true : undefined,
    };
    const defined = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
    const limit = stringFlag(values.limit);
    const results = await (await openSearch()).search({
      query: positionals.join(' '),
      ...(limit !== undefined ? { limit: Number(limit) } : {}),
      ...(Object.keys(defined).length ? { filters: defined as MemorySearchFilters } : {}),
    });
    const text = results.map(hitLines).join('\n');
    return { json: { ok: true, results }, text: text || '(no results)' };
  },
};
