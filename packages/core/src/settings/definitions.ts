import * as z from 'zod/mini';
import { intInRange, lazySchema } from '../contracts/schemas';
import { DEFAULT_MEMORY_BACKEND, FOLLOW_BACKEND_ADAPTER } from '../registry';
import { parseBoolean, parseJson, parseNumber, parseString } from './env-values';
import { MODEL_SETTING_DEFINITIONS } from './model-definitions';
import { PACK_SETTING_DEFINITIONS } from './pack-definitions';
import type { SettingDefinition } from './setting-definition';

const typeName = lazySchema(() =>
  z
    .string()
    .check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use lowercase letters, digits and dashes')),
);

/** A five-field cron expression (minute hour day month weekday). */
const cronSchema = lazySchema(() =>
  z
    .string()
    .check(
      z.regex(
        /^\s*(\S+\s+){4}\S+\s*$/,
        'expected a five-field cron expression such as "0 2 * * *"',
      ),
    ),
);

/** `local` means the machine's zone, resolved when a date is formatted (ICU start-up is slow). */
export const LOCAL_TIME_ZONE = 'local';

const timeZoneSchema = lazySchema(() =>
  z.string().check(
    z.refine((zone) => {
      if (zone === LOCAL_TIME_ZONE) return true;
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'expected "local" or an IANA time zone such as "Europe/Paris" or "UTC"'),
  ),
);

export const SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  {
    key: 'memoryEnabled',
    env: 'CAIRN_MEMORY_ENABLED',
    schema: lazySchema(() => z.boolean()),
    fromEnv: parseBoolean,
    defaultValue: true,
    defaultLabel: '`true`',
    description:
      'Master switch of memory. When false, hook events record and inject nothing, every plane of a pack is off, and no memory instructions are built; explicit commands and tools (`cairn search`, `memory_add`) still work.',
  },
  {
    key: 'memoryBackendType',
    env: 'CAIRN_MEMORY_BACKEND_TYPE',
    schema: lazySchema(() => typeName),
    fromEnv: parseString,
    defaultValue: DEFAULT_MEMORY_BACKEND,
    defaultLabel: `\`"${DEFAULT_MEMORY_BACKEND}"\``,
    description:
      'Which memory backend owns the workspace. An unregistered type is kept but falls back to `file` with a warning.',
  },
  {
    key: 'memoryBackendOptions',
    env: 'CAIRN_MEMORY_BACKEND_OPTIONS',
    schema: lazySchema(() => z.record(z.string(), z.unknown())),
    fromEnv: parseJson,
    defaultValue: {},
    defaultLabel: '`{}`',
    description: 'Options passed to the backend (JSON object in the env variable).',
    // From an untrusted project file it is filtered key by key with the backend's table (gateUntrusted).
    trust: 'exec',
    trustLabel: 'per key (see below)',
  },
  {
    key: 'retrievalAdapter',
    env: 'CAIRN_RETRIEVAL_ADAPTER',
    schema: lazySchema(() => typeName),
    fromEnv: parseString,
    defaultValue: FOLLOW_BACKEND_ADAPTER,
    defaultLabel: `\`"${FOLLOW_BACKEND_ADAPTER}"\``,
    description:
      'The index every recall goes through (`cairn search`, `memory_search`, prompt and session-start recall, context packs). `auto` follows `memoryBackendType` (`readonly` recalls through `file`). An unregistered id falls back to the builtin `file` adapter with a warning.',
  },
  {
    key: 'insightExtractionEnabled',
    env: 'CAIRN_INSIGHT_EXTRACTION_ENABLED',
    schema: lazySchema(() => z.boolean()),
    fromEnv: parseBoolean,
    defaultValue: false,
    defaultLabel: '`false`',
    description:
      'Scheduled insight extraction (docs/MAINTENANCE.md): when true, each session end checks whether a run is due (one small state read) and, when it is, starts one in the background. `cairn insights run` works either way.',
  },
  {
    key: 'insightExtractionSchedule',
    env: 'CAIRN_INSIGHT_EXTRACTION_SCHEDULE',
    schema: lazySchema(() => cronSchema),
    fromEnv: parseString,
    defaultValue: '0 2 * * *',
    defaultLabel: '`"0 2 * * *"`',
    description:
      'Five-field cron schedule (read by croner, in `timezone`): a scheduled run is due once the schedule has fired since the last run (and the minimum interval has passed).',
  },
  {
    key: 'insightExtractionMinIntervalMs',
    env: 'CAIRN_INSIGHT_EXTRACTION_MIN_INTERVAL_MS',
    schema: lazySchema(() => intInRange(0)),
    fromEnv: parseNumber,
    defaultValue: 86_400_000,
    defaultLabel: '`86400000` (one day)',
    description:
      'Minimum time from the last run before a scheduled run is due, even when the schedule fired earlier.',
  },
  {
    key: 'timezone',
    env: 'CAIRN_TIMEZONE',
    schema: lazySchema(() => timeZoneSchema),
    fromEnv: parseString,
    defaultValue: LOCAL_TIME_ZONE,
    defaultLabel: '`"local"` (the system\'s zone)',
    description:
      'IANA time zone that decides the date of the daily file (`YYYY-MM-DD.md`); `local` uses the system zone.',
  },
  {
    key: 'projectId',
    env: 'CAIRN_PROJECT_ID',
    schema: lazySchema(() =>
      z
        .string()
        .check(
          z.regex(
            /^([a-z0-9][a-z0-9._-]{0,39})?$/,
            'use up to 40 lowercase letters, digits, dots, dashes and underscores, starting with a letter or digit',
          ),
        ),
    ),
    fromEnv: parseString,
    defaultValue: '',
    defaultLabel: '`""` (the id stored at the first session)',
    description:
      "Names the project in default thread keys (`<projectId>.<branch>`, e.g. `cairn.main`). Empty: the first session stores the folder's name (in `.cairn/state/heads.db`) and every later session uses it, so renaming or moving the folder keeps its threads. Set it in `.cairn/config.json` to give every clone the same keys, whatever its folder is called.",
  },
  {
    key: 'limits.searchLimit',
    env: 'CAIRN_LIMITS_SEARCH_LIMIT',
    schema: lazySchema(() => intInRange(1, 100)),
    fromEnv: parseNumber,
    defaultValue: 10,
    defaultLabel: '`10`',
    description: 'Default number of search results.',
  },
  {
    key: 'limits.snippetChars',
    env: 'CAIRN_LIMITS_SNIPPET_CHARS',
    schema: lazySchema(() => intInRange(40, 4000)),
    fromEnv: parseNumber,
    defaultValue: 320,
    defaultLabel: '`320`',
    description: 'Maximum characters in one search snippet.',
  },
  {
    key: 'limits.maxUnitChars',
    env: 'CAIRN_LIMITS_MAX_UNIT_CHARS',
    schema: lazySchema(() => intInRange(20, 100_000)),
    fromEnv: parseNumber,
    defaultValue: 2000,
    defaultLabel: '`2000`',
    description: 'Longest text one memory unit may hold; longer adds fail with `text_too_long`.',
  },
  {
    key: 'limits.getMaxLines',
    env: 'CAIRN_LIMITS_GET_MAX_LINES',
    schema: lazySchema(() => intInRange(1, 5000)),
    fromEnv: parseNumber,
    defaultValue: 200,
    defaultLabel: '`200`',
    description: 'Maximum lines one `get` returns.',
  },
  {
    key: 'limits.headTokens',
    env: 'CAIRN_LIMITS_HEAD_TOKENS',
    schema: lazySchema(() => intInRange(100, 20_000)),
    fromEnv: parseNumber,
    defaultValue: 1200,
    defaultLabel: '`1200`',
    description:
      'Token budget of the managed head region of MEMORY.md (Tier 1), about 4 characters a token.',
  },
  {
    key: 'limits.injectTokens',
    env: 'CAIRN_LIMITS_INJECT_TOKENS',
    schema: lazySchema(() => intInRange(100, 50_000)),
    fromEnv: parseNumber,
    defaultValue: 2400,
    defaultLabel: '`2400`',
    description:
      'Deprecated: `memory.contextBudgetTokens` is the one budget. Set alone, its value becomes that budget (with a warning in `cairn status`).',
  },
  {
    key: 'lineage.condenseThreshold',
    env: 'CAIRN_LINEAGE_CONDENSE_THRESHOLD',
    schema: lazySchema(() => intInRange(2, 1000)),
    fromEnv: parseNumber,
    defaultValue: 8,
    defaultLabel: '`8`',
    description:
      'Summary and compaction roots a thread may hold before they are condensed into one node.',
  },
  ...MODEL_SETTING_DEFINITIONS,
  {
    key: 'search.vectorWeight',
    env: 'CAIRN_SEARCH_VECTOR_WEIGHT',
    schema: lazySchema(() => z.number().check(z.gte(0), z.lte(1))),
    fromEnv: parseNumber,
    defaultValue: 0.3,
    defaultLabel: '`0.3`',
    description:
      'File index, hybrid search: weight of the vector similarity in the fused score (only with an embedder). LanceDB, Qdrant and Mem0 rank their own way (docs/SEARCH.md).',
  },
  {
    key: 'search.keywordWeight',
    env: 'CAIRN_SEARCH_KEYWORD_WEIGHT',
    schema: lazySchema(() => z.number().check(z.gte(0), z.lte(1))),
    fromEnv: parseNumber,
    defaultValue: 0.7,
    defaultLabel: '`0.7`',
    description:
      'File index, hybrid search: weight of the full-text (bm25) score in the fused score.',
  },
  {
    key: 'search.mmr',
    env: 'CAIRN_SEARCH_MMR',
    schema: lazySchema(() => z.boolean()),
    fromEnv: parseBoolean,
    defaultValue: false,
    defaultLabel: '`false`',
    description:
      'File index, hybrid search: re-rank with maximal marginal relevance so near-identical chunks do not fill the results. Off by default: it cost recall on LoCoMo (see docs/SEARCH.md).',
  },
  {
    key: 'search.mmrLambda',
    env: 'CAIRN_SEARCH_MMR_LAMBDA',
    schema: lazySchema(() => z.number().check(z.gte(0), z.lte(1))),
    fromEnv: parseNumber,
    defaultValue: 0.8,
    defaultLabel: '`0.8`',
    description: 'File index, MMR trade-off: 1 is pure relevance, 0 pure diversity.',
  },
  {
    key: 'search.minSimilarity',
    env: 'CAIRN_SEARCH_MIN_SIMILARITY',
    schema: lazySchema(() => z.number().check(z.gte(-1), z.lte(1))),
    fromEnv: parseNumber,
    defaultValue: 0.1,
    defaultLabel: '`0.1`',
    description:
      'File index, hybrid search: a chunk found by vector alone (no keyword match) needs at least this cosine similarity to the query. Suits the `hash` embedder; raise it (0.3 to 0.5) for neural models, whose unrelated texts still score high. LanceDB and Qdrant take their own `minSimilarity` option (default 0.2), Mem0 its `threshold`.',
  },
  {
    key: 'search.recencyHalfLifeDays',
    env: 'CAIRN_SEARCH_RECENCY_HALF_LIFE_DAYS',
    schema: lazySchema(() => z.number().check(z.gte(0), z.lte(36_500))),
    fromEnv: parseNumber,
    defaultValue: 90,
    defaultLabel: '`90`',
    description:
      'File index, hybrid search: RAW notes of a dated daily file (`YYYY-MM-DD.md`) lose half their score every this many days; MEMORY.md, thread files and managed units never decay. `0` turns decay off.',
  },
  ...PACK_SETTING_DEFINITIONS,
];

export type { SettingDefinition } from './setting-definition';
