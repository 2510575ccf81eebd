import * as z from 'zod/mini';
import { intInRange, lazySchema } from '../contracts/schemas';
import { parseBoolean, parseJson, parseNumber, parseString } from './env-values';
import type { SettingDefinition } from './setting-definition';

/** Where the settings are explained. */
const SEE_PACKS = ' See docs/PACKS.md.';
/** The documents pool's default globs (README*, agent instructions, docs/, ADR folders). */
export const DEFAULT_DOCUMENT_GLOBS = [
  'README*',
  'AGENTS.md',
  'CLAUDE.md',
  'docs/**',
  'doc/**',
  'adr/**',
  'adrs/**',
] as const;

const splitList = (raw: string) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

const share = (plane: string, key: string, defaultValue: number): SettingDefinition => ({
  key: `memory.${key}Share`,
  env: `CAIRN_MEMORY_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_SHARE`,
  schema: lazySchema(() => z.number().check(z.gte(0), z.lte(1))),
  fromEnv: parseNumber,
  defaultValue,
  defaultLabel: `\`${defaultValue}\``,
  description: `Relative share of the context budget for the ${plane} plane; unused share flows on to the next plane.${SEE_PACKS}`,
});

/**
 * The context pack settings: one token budget for all Cairn injects in a
 * turn, the plane switches and each plane's share. None of
 * them runs a program or sends data anywhere, so none needs trust.
 */
export const PACK_SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  {
    key: 'memory.contextBudgetTokens',
    env: 'CAIRN_MEMORY_CONTEXT_BUDGET_TOKENS',
    schema: lazySchema(() => intInRange(0, 100_000)),
    fromEnv: parseNumber,
    defaultValue: 2000,
    defaultLabel: '`2000`',
    description: `Tokens of context Cairn may inject in one turn: the memory head, the thread head, the pack's planes and its frame, all together (replaces \`limits.injectTokens\`).${SEE_PACKS}`,
  },
  {
    key: 'memory.planning',
    env: 'CAIRN_MEMORY_PLANNING',
    schema: lazySchema(() => z.enum(['beads', 'bd', 'off'])),
    fromEnv: parseString,
    defaultValue: 'beads',
    defaultLabel: '`"beads"`',
    description: `Planning plane: \`beads\` reads the issue a run or prompt names from \`bd\` on PATH (\`cairn pack\`, MCP) or the \`.beads/\` export (hooks, which never run \`bd\`); \`bd\` lets the hooks run \`bd\` too; \`off\` skips it.${SEE_PACKS}`,
  },
  {
    key: 'memory.history',
    env: 'CAIRN_MEMORY_HISTORY',
    schema: lazySchema(() => z.enum(['digest', 'off'])),
    fromEnv: parseString,
    defaultValue: 'digest',
    defaultLabel: '`"digest"`',
    description: `History plane: \`digest\` recalls run digests and fix patterns (the pack's history plane and the warm \`history\` pool of recall); \`off\` skips both.${SEE_PACKS}`,
  },
  {
    key: 'memory.longTerm',
    env: 'CAIRN_MEMORY_LONG_TERM',
    schema: lazySchema(() => z.enum(['units', 'off'])),
    fromEnv: parseString,
    defaultValue: 'units',
    defaultLabel: '`"units"`',
    description: `Long-term plane: \`units\` recalls memory units through the configured backend (Mem0 included); \`off\` skips it.${SEE_PACKS}`,
  },
  {
    key: 'memory.failOpen',
    env: 'CAIRN_MEMORY_FAIL_OPEN',
    schema: lazySchema(() => z.boolean()),
    fromEnv: parseBoolean,
    defaultValue: true,
    defaultLabel: '`true`',
    description: `A plane that fails or runs out of time contributes nothing and the pack is still built; \`false\` turns the failure into a typed error.${SEE_PACKS}`,
  },
  {
    key: 'memory.planeTimeoutMs',
    env: 'CAIRN_MEMORY_PLANE_TIMEOUT_MS',
    schema: lazySchema(() => intInRange(100, 10_000)),
    fromEnv: parseNumber,
    defaultValue: 2000,
    defaultLabel: '`2000`',
    description: `Milliseconds each plane of a pack may take before it is left out (\`memory.failOpen\`): raise it where a cold start is slow (a native backend's first load on a busy machine, a remote index); 100 to 10,000.${SEE_PACKS}`,
  },
  {
    key: 'memory.namespace',
    env: 'CAIRN_MEMORY_NAMESPACE',
    schema: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/)),
    fromEnv: parseString,
    defaultValue: 'default',
    defaultLabel: '`"default"`',
    description:
      "The memory namespace, a partition inside one project: task history's failures, fix patterns and run digests are recorded and read in it, and it is the `namespace` partition key of the LanceDB, Qdrant and Mem0 indexes unless their options name one. Two namespaces of one project never see each other's patterns. Letters, digits, `_` and `-`. See docs/HISTORY.md.",
  },
  share('planning', 'planning', 0.15),
  share('history', 'history', 0.25),
  share('long-term', 'longTerm', 0.4),
  share('documents', 'documents', 0.2),
  {
    key: 'memory.documentGlobs',
    env: 'CAIRN_MEMORY_DOCUMENT_GLOBS',
    schema: lazySchema(() =>
      z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(64)),
    ),
    // A JSON array, or a comma-separated list.
    fromEnv: (raw) => (raw.trim().startsWith('[') ? parseJson(raw) : splitList(raw)),
    defaultValue: [...DEFAULT_DOCUMENT_GLOBS],
    defaultLabel: DEFAULT_DOCUMENT_GLOBS.map((glob) => `\`${glob}\``).join(', '),
    description:
      "The project's own documents recalled as the cold `documents` pool and the pack's documents plane: globs relative to the root, letter case ignored (`README*` finds `readme.md`; picomatch syntax: `*`, `**`, `?`, `{a,b}`; `dir/` or `dir/**` for a folder; markdown and text files only), indexed by Markdown section. Files the root `.gitignore` ignores and links leaving the root are skipped; nothing is ever written.",
  },
  {
    key: 'memory.documentMaxFileBytes',
    env: 'CAIRN_MEMORY_DOCUMENT_MAX_FILE_BYTES',
    schema: lazySchema(() => intInRange(1024, 16 * 1024 * 1024)),
    fromEnv: parseNumber,
    defaultValue: 256 * 1024,
    defaultLabel: '`262144`',
    description: 'A project document larger than this is not indexed (documents pool).',
  },
  {
    key: 'memory.documentMaxTotalBytes',
    env: 'CAIRN_MEMORY_DOCUMENT_MAX_TOTAL_BYTES',
    schema: lazySchema(() => intInRange(1024, 256 * 1024 * 1024)),
    fromEnv: parseNumber,
    defaultValue: 8 * 1024 * 1024,
    defaultLabel: '`8388608`',
    description:
      'Bytes of project documents indexed at most, in path order; the files past the cap are left out (documents pool).',
  },
];
