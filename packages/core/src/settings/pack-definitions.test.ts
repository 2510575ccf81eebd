import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { PACK_SETTING_DEFINITIONS } from './pack-definitions';
import { resolveSettings } from './resolve-settings';

let root: string;
let project: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-pack-settings-'));
  project = join(root, 'project');
  await mkdir(join(project, '.cairn'), { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const resolve = (env: NodeJS.ProcessEnv = {}) =>
  resolveSettings({ projectRoot: project, homeDir: join(root, 'home'), env });

describe('context pack settings', () => {
  it('default to a 2,000-token budget, every plane on, fail-open', () => {
    expect(resolve().settings.memory).toEqual({
      contextBudgetTokens: 2000,
      planning: 'beads',
      history: 'digest',
      longTerm: 'units',
      failOpen: true,
      planeTimeoutMs: 2000,
      namespace: 'default',
      planningShare: 0.15,
      historyShare: 0.25,
      longTermShare: 0.4,
      documentsShare: 0.2,
      documentGlobs: [
        'README*',
        'AGENTS.md',
        'CLAUDE.md',
        'docs/**',
        'doc/**',
        'adr/**',
        'adrs/**',
      ],
      documentMaxFileBytes: 262144,
      documentMaxTotalBytes: 8388608,
    });
  });

  it('reads the document globs from a JSON array or a comma-separated list', () => {
    expect(
      resolve({ CAIRN_MEMORY_DOCUMENT_GLOBS: 'README.md, handbook/**' }).settings.memory
        .documentGlobs,
    ).toEqual(['README.md', 'handbook/**']);
    expect(
      resolve({ CAIRN_MEMORY_DOCUMENT_GLOBS: '["docs/**"]' }).settings.memory.documentGlobs,
    ).toEqual(['docs/**']);
  });

  it('each has a CAIRN_MEMORY_* variable, named after the seed flag', () => {
    expect(PACK_SETTING_DEFINITIONS.map((d) => d.env)).toEqual([
      'CAIRN_MEMORY_CONTEXT_BUDGET_TOKENS',
      'CAIRN_MEMORY_PLANNING',
      'CAIRN_MEMORY_HISTORY',
      'CAIRN_MEMORY_LONG_TERM',
      'CAIRN_MEMORY_FAIL_OPEN',
      'CAIRN_MEMORY_PLANE_TIMEOUT_MS',
      'CAIRN_MEMORY_NAMESPACE',
      'CAIRN_MEMORY_PLANNING_SHARE',
      'CAIRN_MEMORY_HISTORY_SHARE',
      'CAIRN_MEMORY_LONG_TERM_SHARE',
      'CAIRN_MEMORY_DOCUMENTS_SHARE',
      'CAIRN_MEMORY_DOCUMENT_GLOBS',
      'CAIRN_MEMORY_DOCUMENT_MAX_FILE_BYTES',
      'CAIRN_MEMORY_DOCUMENT_MAX_TOTAL_BYTES',
    ]);
    const { settings, sources, warnings } = resolve({
      CAIRN_MEMORY_CONTEXT_BUDGET_TOKENS: '3000',
      CAIRN_MEMORY_PLANNING: 'off',
      CAIRN_MEMORY_FAIL_OPEN: 'no',
      CAIRN_MEMORY_PLANE_TIMEOUT_MS: '8000',
      CAIRN_MEMORY_LONG_TERM_SHARE: '0.6',
    });
    expect(settings.memory).toMatchObject({
      contextBudgetTokens: 3000,
      planning: 'off',
      failOpen: false,
      planeTimeoutMs: 8000,
      longTermShare: 0.6,
    });
    expect(sources['memory.longTermShare']).toEqual({
      kind: 'env',
      variable: 'CAIRN_MEMORY_LONG_TERM_SHARE',
    });
    expect(warnings).toEqual([]);
  });

  it('refuse a plane time budget out of its range, naming the setting', () => {
    for (const value of ['50', '60000', 'soon']) {
      expect(() => resolve({ CAIRN_MEMORY_PLANE_TIMEOUT_MS: value })).toThrow(
        /memory\.planeTimeoutMs/,
      );
    }
  });

  it('take a lone limits.injectTokens as the budget, with a warning; ignore it beside the budget', async () => {
    const migrated = resolve({ CAIRN_LIMITS_INJECT_TOKENS: '3200' });
    expect(migrated.settings.memory.contextBudgetTokens).toBe(3200);
    expect(migrated.sources['memory.contextBudgetTokens']).toEqual({
      kind: 'env',
      variable: 'CAIRN_LIMITS_INJECT_TOKENS',
    });
    expect(migrated.warnings).toEqual([
      'limits.injectTokens (env CAIRN_LIMITS_INJECT_TOKENS) is deprecated: its 3200 tokens are used as memory.contextBudgetTokens; rename it',
    ]);
    await writeFile(
      join(project, '.cairn', 'config.json'),
      JSON.stringify({ limits: { injectTokens: 900 }, memory: { contextBudgetTokens: 1500 } }),
    );
    const both = resolve();
    expect(both.settings.memory.contextBudgetTokens).toBe(1500);
    expect(both.warnings.join('\n')).toMatch(
      /limits\.injectTokens \(.*config\.json\) is deprecated and ignored/,
    );
    expect(resolve().warnings.length).toBe(1);
  });

  it('are read from a project config file too (none of them needs trust)', async () => {
    await writeFile(
      join(project, '.cairn', 'config.json'),
      JSON.stringify({ memory: { history: 'off', documentsShare: 0 } }),
    );
    const { settings, trust } = resolve();
    expect(settings.memory).toMatchObject({ history: 'off', documentsShare: 0 });
    expect(trust.ignored).toEqual([]);
  });

  it('reject a bad value with INVALID_CONFIG naming the variable', () => {
    for (const env of [
      { CAIRN_MEMORY_CONTEXT_BUDGET_TOKENS: '-5' },
      { CAIRN_MEMORY_PLANNING: 'jira' },
      { CAIRN_MEMORY_HISTORY_SHARE: '1.5' },
    ]) {
      let error: unknown;
      try {
        resolve(env);
      } catch (caught) {
        error = caught;
      }
      expect(CairnError.isInstance(error) && error.code).toBe('INVALID_CONFIG');
      expect(String(error)).toContain(Object.keys(env)[0]);
    }
  });
});
