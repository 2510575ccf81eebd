import { escapeMarkers, estimateTokens } from '@cairn/core';
import type { HeadUnit } from './head-render';

/**
 * The managed region of MEMORY.md is the team's head (docs/TEAMS.md): it
 * holds only what every clone of the repository knows alike, the approved
 * decisions and preferences of the committed units, rendered the same way
 * in every clone (no time, no thread, no lineage id) and written only when
 * that set changes. A clone's own threads, next actions and lineage are its
 * personal head, kept in `.cairn/state/heads.db` and injected from there,
 * so a session never rewrites what a teammate's history produced, and two
 * people's sessions leave MEMORY.md as it was: their merge has nothing in
 * the region to reconcile.
 */

const TITLE = '### Durable constraints';
const NONE = '_No approved decisions or preferences yet._';
/** The last line of every team region: how a region is recognised as one. */
export const TEAM_HEAD_FOOTER =
  "_Cairn's team head: the approved decisions and preferences in .cairn/memory/, the same in every clone. Each clone's own threads and next actions stay on its machine (`cairn head`)._";
/** The footer of a head rendered before the team head existed: one clone's threads, with a time. */
const PERSONAL_FOOTER = /^_Cairn head, rendered [^\n]*_$/m;
const UNIT_LINE = /^- .+ \(`UNIT:[0-9a-f-]{36}`\)$/;

const clip = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * The team region: the newest approved decisions and preferences that fit
 * `budgetTokens`, listed by unit id. The order by id, not by time, puts a
 * unit approved in one clone and another approved in a second clone at
 * unrelated places in the list, so git usually merges the two renders.
 */
export function renderTeamHeadRegion(input: { units: HeadUnit[]; budgetTokens: number }): string {
  let used = estimateTokens(TEAM_HEAD_FOOTER) + estimateTokens(TITLE) + 8;
  const chosen: { id: string; line: string }[] = [];
  const newest = [...input.units].sort(
    (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.memoryId.localeCompare(b.memoryId),
  );
  for (const unit of newest) {
    const line = `- ${clip(unit.text)} (\`${unit.memoryId}\`)`;
    const cost = estimateTokens(line) + 1;
    if (used + cost > input.budgetTokens) break;
    used += cost;
    chosen.push({ id: unit.memoryId, line });
  }
  chosen.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const body = chosen.length ? [TITLE, ...chosen.map((c) => c.line)] : [NONE];
  // Unit text is the user's: a marker in it must not open or close the region.
  return escapeMarkers([...body, '', TEAM_HEAD_FOOTER].join('\n'));
}

/**
 * Whose a managed region is, as the team head writer sees it:
 * - `empty`: nothing in it yet;
 * - `team`: a team region Cairn rendered (in this clone or another): replaced;
 * - `own`: the personal head this clone rendered before the team head: replaced;
 * - `other`: a personal head another clone rendered and committed: left as it is;
 * - `edited`: text a person wrote or changed: kept below the region.
 */
export type RegionOwner = 'empty' | 'team' | 'own' | 'other' | 'edited';

export function regionOwner(
  current: string,
  lastRendered: string | undefined,
  knownNodes: (ids: string[]) => Set<string>,
): RegionOwner {
  const text = current.replace(/\r\n/g, '\n').trim();
  if (text === '') return 'empty';
  if (lastRendered !== undefined && text === lastRendered.trim()) return 'own';
  if (isTeamRender(text)) return 'team';
  if (PERSONAL_FOOTER.test(text)) {
    const from = renderedBy(text, knownNodes);
    if (from !== 'unknown') return from === 'here' ? 'own' : 'other';
  }
  return 'edited';
}

/** A thread head's region, as Cairn renders it (`renderThreadHead`). */
const THREAD_RENDER = /^# Thread [^\n]*\n\n<!-- cairn:thread agent=[^\n]* -->\n/;

/**
 * True when a thread head file's region is a render of another clone (a
 * teammate's, committed before thread heads were kept per machine): Cairn
 * leaves it as it is and keeps this clone's view of the thread in heads.db.
 */
export function threadHeadOfOtherClone(
  current: string,
  lastRendered: string | undefined,
  knownNodes: (ids: string[]) => Set<string>,
): boolean {
  const text = current.replace(/\r\n/g, '\n').trim();
  if (text === '' || (lastRendered !== undefined && text === lastRendered.trim())) return false;
  return THREAD_RENDER.test(`${text}\n`) && renderedBy(text, knownNodes) === 'elsewhere';
}

const NODE_ID = /`(node:[0-9a-f-]{36})`/g;

/** The lineage ids (`node:<uuid>`) a rendered head names, in order, once each. */
export function lineageIdsIn(text: string): string[] {
  return [...new Set([...text.matchAll(NODE_ID)].map((match) => match[1]!))];
}

/**
 * Which clone rendered a head, from the lineage ids it names: `here` when
 * this clone distilled them all, `elsewhere` when it lacks one, `unknown`
 * when the head names none.
 */
function renderedBy(
  text: string,
  knownNodes: (ids: string[]) => Set<string>,
): 'here' | 'elsewhere' | 'unknown' {
  const ids = lineageIdsIn(text);
  if (ids.length === 0) return 'unknown';
  return knownNodes(ids).size === ids.length ? 'here' : 'elsewhere';
}

/**
 * A head read from a file, with every lineage id this clone cannot expand
 * taken out: a lineage line keeps the ids this clone knows and goes when
 * none is left, and a section left empty goes with its title. What a
 * teammate's history says stays; only the drill-down targets go.
 */
export function withoutUnknownLineage(
  region: string,
  knownNodes: (ids: string[]) => Set<string>,
): string {
  const ids = lineageIdsIn(region);
  if (ids.length === 0) return region;
  const known = knownNodes(ids);
  if (known.size === ids.length) return region;
  const lines = region.split('\n').flatMap((line) => {
    const named = lineageIdsIn(line);
    if (named.length === 0) return [line];
    const kept = named.filter((id) => known.has(id));
    if (kept.length === 0) return [];
    const first = line.indexOf(`\`${named[0]}\``);
    const last = line.lastIndexOf(`\`${named.at(-1)}\``) + named.at(-1)!.length + 2;
    return [
      `${line.slice(0, first)}${kept.map((id) => `\`${id}\``).join(', ')}${line.slice(last)}`,
    ];
  });
  // A section title followed by nothing but blank lines or another title lost its lines.
  return lines
    .filter((line, i) => {
      if (!/^#{1,6} /.test(line)) return true;
      const next = lines.slice(i + 1).find((l) => l.trim() !== '');
      return next !== undefined && !/^#{1,6} /.test(next) && !next.startsWith('_Cairn');
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** The lines git writes around a conflict it left for a person to resolve. */
export const GIT_CONFLICT_LINE = /^(?:<{7}|>{7}|\|{7})(?: .*)?$|^={7}$/;

/**
 * What `renderTeamHeadRegion` writes, its title, unit lines, the empty
 * note and the footer, possibly twice over with git's conflict lines
 * between (two clones approved units at once): the next render heals it.
 */
function isTeamRender(text: string): boolean {
  const lines = text.split('\n').filter((line) => !GIT_CONFLICT_LINE.test(line));
  if (lines.at(-1) !== TEAM_HEAD_FOOTER) return false;
  return lines.every(
    (line) =>
      line === '' ||
      line === TITLE ||
      line === NONE ||
      line === TEAM_HEAD_FOOTER ||
      UNIT_LINE.test(line),
  );
}
