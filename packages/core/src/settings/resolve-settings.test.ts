import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { resolveSettings } from './resolve-settings';

let home: string;
let project: string;
let cleanupDir: string;

beforeEach(async () => {
  cleanupDir = await mkdtemp(join(tmpdir(), 'cairn-settings-'));
  home = join(cleanupDir, 'home');
  project = join(cleanupDir, 'project');
  await mkdir(join(home, '.config', 'cairn'), { recursive: true });
  await mkdir(join(project, '.cairn'), { recursive: true });
});
afterEach(() => rm(cleanupDir, { recursive: true, force: true }));

const userFile = () => join(home, '.config', 'cairn', 'config.json');
const projectFile = () => join(project, '.cairn', 'config.json');
const resolve = (env: NodeJS.ProcessEnv = {}, overrides = {}) =>
  resolveSettings({ projectRoot: project, homeDir: home, env, overrides });

function invalid(run: () => unknown): CairnError {
  try {
    run();
  } catch (error) {
    if (CairnError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('resolveSettings', () => {
  it('reads memory.namespace (default "default") and refuses a namespace that is not a name', () => {
    expect(resolve().settings.memory.namespace).toBe('default');
    expect(resolve({ CAIRN_MEMORY_NAMESPACE: 'team-a' }).settings.memory.namespace).toBe('team-a');
    expect(invalid(() => resolve({ CAIRN_MEMORY_NAMESPACE: 'a b' })).code).toBe('INVALID_CONFIG');
  });

  it('uses the seed defaults and the file backend when nothing is configured', () => {
    const { settings, sources } = resolve();
    expect(settings).toMatchObject({
      memoryEnabled: true,
      memoryBackendType: 'file',
      retrievalAdapter: 'auto',
      insightExtractionEnabled: false,
      insightExtractionSchedule: '0 2 * * *',
      insightExtractionMinIntervalMs: 86_400_000,
      limits: { searchLimit: 10, snippetChars: 320, getMaxLines: 200 },
    });
    expect(sources.memoryBackendType).toEqual({ kind: 'default' });
    expect(settings.timezone).toBe('local');
  });

  it('layers user < project < env < options and records each source', async () => {
    await writeFile(
      userFile(),
      JSON.stringify({ timezone: 'Asia/Tokyo', limits: { searchLimit: 3 } }),
    );
    await writeFile(
      projectFile(),
      JSON.stringify({ timezone: 'Europe/Paris', memoryEnabled: false }),
    );
    const { settings, sources } = resolve(
      { CAIRN_MEMORY_ENABLED: 'true', CAIRN_LIMITS_SNIPPET_CHARS: '100' },
      { limits: { snippetChars: 200 } },
    );
    expect(settings.timezone).toBe('Europe/Paris');
    expect(sources.timezone).toEqual({ kind: 'project', file: projectFile() });
    expect(settings.limits.searchLimit).toBe(3);
    expect(sources['limits.searchLimit']).toEqual({ kind: 'user', file: userFile() });
    expect(settings.memoryEnabled).toBe(true);
    expect(sources.memoryEnabled).toEqual({ kind: 'env', variable: 'CAIRN_MEMORY_ENABLED' });
    expect(settings.limits.snippetChars).toBe(200);
    expect(sources['limits.snippetChars']).toEqual({ kind: 'option' });
  });

  it('keeps an unknown backend type (fallback happens at resolution) and warns on unknown keys', async () => {
    await writeFile(
      projectFile(),
      JSON.stringify({ memoryBackendType: 'future-db', colour: 'red' }),
    );
    const { settings, warnings } = resolve();
    expect(settings.memoryBackendType).toBe('future-db');
    expect(warnings).toEqual([`unknown setting "colour" in ${projectFile()} is ignored`]);
  });

  it.each([
    ['broken JSON', '{ "memoryEnabled": ', '(file)', /not valid JSON/],
    ['a JSON array', '[]', '(file)', /expected a JSON object/],
    ['a wrong type', '{ "memoryEnabled": "yes" }', 'memoryEnabled', /boolean/],
    ['an out-of-range limit', '{ "limits": { "snippetChars": 5 } }', 'limits.snippetChars', /5|40/],
    ['a bad time zone', '{ "timezone": "Mars/Olympus" }', 'timezone', /IANA/],
    ['a bad cron', '{ "insightExtractionSchedule": "daily" }', 'insightExtractionSchedule', /cron/],
  ])('rejects %s in the project file, naming file and key', async (_label, text, key, reason) => {
    await writeFile(projectFile(), text);
    const error = invalid(() => resolve());
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.details).toMatchObject({ source: projectFile(), key });
    expect(String(error.details.reason)).toMatch(reason);
  });

  it('rejects a bad env value naming the variable', () => {
    const error = invalid(() => resolve({ CAIRN_LIMITS_SEARCH_LIMIT: 'lots' }));
    expect(error.details).toMatchObject({
      source: 'env CAIRN_LIMITS_SEARCH_LIMIT',
      key: 'limits.searchLimit',
    });
  });

  it('rejects a bad user file and a bad explicit option', async () => {
    await writeFile(userFile(), '{ nope');
    expect(invalid(() => resolve()).details).toMatchObject({ source: userFile() });
    await rm(userFile());
    const error = invalid(() => resolve({}, { memoryBackendType: 'Bad Type!' }));
    expect(error.details).toMatchObject({ source: 'explicit options', key: 'memoryBackendType' });
  });

  it('honours XDG_CONFIG_HOME for the user file', async () => {
    const xdg = join(cleanupDir, 'xdg');
    await mkdir(join(xdg, 'cairn'), { recursive: true });
    await writeFile(
      join(xdg, 'cairn', 'config.json'),
      JSON.stringify({ retrievalAdapter: 'lancedb' }),
    );
    const { settings, userConfigPath } = resolve({ XDG_CONFIG_HOME: xdg });
    expect(settings.retrievalAdapter).toBe('lancedb');
    expect(userConfigPath).toBe(join(xdg, 'cairn', 'config.json'));
  });

  it('reads the user file under the HOME of the environment it is given, not this process’s', async () => {
    await writeFile(userFile(), JSON.stringify({ memory: { longTerm: 'off' } }));
    const given = resolveSettings({ projectRoot: project, env: { HOME: home } });
    expect(given.userConfigPath).toBe(userFile());
    expect(given.settings.memory.longTerm).toBe('off');
  });
});

describe('a user config that fails the ownership rule', () => {
  // The user config may turn on settings that run programs or send data off the machine.
  const remote = { summarizer: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } };

  it('is ignored in a folder others can write, with a warning naming the folder and the fix', async () => {
    const open = join(cleanupDir, 'open');
    await mkdir(join(open, 'cairn'), { recursive: true });
    await chmod(open, 0o777);
    await writeFile(join(open, 'cairn', 'config.json'), JSON.stringify(remote));
    const resolved = resolve({ XDG_CONFIG_HOME: open });
    expect(resolved.settings.summarizer.provider).toBe('extractive');
    expect(resolved.sources['summarizer.baseUrl']).toEqual({ kind: 'default' });
    expect(resolved.warnings).toContain(
      `the user config ${join(open, 'cairn', 'config.json')} is not used (its settings are ignored): ${open} can be written by group or others; run \`chmod go-w ${open}\` (see docs/SECURITY.md#per-user-files-and-folders)`,
    );
  });

  it('is read through a link to a sound file (a dotfile manager), not to one others can write', async () => {
    const dotfiles = join(cleanupDir, 'dotfiles');
    await mkdir(dotfiles);
    await writeFile(join(dotfiles, 'cairn.json'), JSON.stringify(remote));
    await symlink(join(dotfiles, 'cairn.json'), userFile());
    expect(resolve().settings.summarizer.provider).toBe('openai');
    await chmod(join(dotfiles, 'cairn.json'), 0o646);
    const resolved = resolve();
    expect(resolved.settings.summarizer.provider).toBe('extractive');
    expect(resolved.warnings.join('\n')).toContain(`chmod go-w ${join(dotfiles, 'cairn.json')}`);
  });

  it.runIf(process.getuid?.() === 0)(
    'is ignored when another user owns it (needs root to chown)',
    async () => {
      await writeFile(userFile(), JSON.stringify(remote));
      await chown(userFile(), 65534, 65534);
      const resolved = resolve();
      expect(resolved.settings.summarizer.provider).toBe('extractive');
      expect(resolved.warnings.join('\n')).toMatch(/belongs to another user \(uid 65534\)/);
    },
  );
});
