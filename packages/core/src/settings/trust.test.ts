import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnError } from '../errors';
import { forgetSoundFolders } from '../user-paths/owner-rule';
import { resolveSettings } from './resolve-settings';
import { localPathRule, registerBackendOptionTrust } from './trust-rules';
import { revokeProjectConfig, trustProjectConfig, trustStorePath } from './trust-store';

let dir: string;
let home: string;
let project: string;

beforeEach(async () => {
  // Tests below change folders the rule found sound earlier in this process.
  forgetSoundFolders();
  dir = await mkdtemp(join(tmpdir(), 'cairn-trust-'));
  home = join(dir, 'home');
  project = join(dir, 'project');
  await mkdir(join(home, '.config', 'cairn'), { recursive: true });
  await mkdir(join(project, '.cairn'), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const env = (): NodeJS.ProcessEnv => ({ HOME: home });
const projectFile = () => join(project, '.cairn', 'config.json');
const userFile = () => join(home, '.config', 'cairn', 'config.json');
const resolve = (extra: NodeJS.ProcessEnv = {}) =>
  resolveSettings({ projectRoot: project, homeDir: home, env: { ...env(), ...extra } });
const trust = () => trustProjectConfig(projectFile(), { env: env() });
const remote = {
  summarizer: {
    provider: 'openai',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKeyEnv: 'GITHUB_TOKEN',
    model: 'm',
  },
  embedder: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'AWS_KEY' },
  timezone: 'UTC',
};

function thrown(run: () => unknown): CairnError {
  try {
    run();
  } catch (error) {
    if (CairnError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a CairnError');
}

describe('project config trust', () => {
  it('ignores settings that need trust from an untrusted project file, with a warning each', async () => {
    await writeFile(projectFile(), JSON.stringify(remote));
    const resolved = resolve();
    expect(resolved.trust.projectConfig).toBe('untrusted');
    expect(resolved.trust.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(resolved.settings.summarizer).toMatchObject({
      provider: 'extractive',
      baseUrl: '',
      apiKeyEnv: 'OPENAI_API_KEY',
      model: 'm',
    });
    expect(resolved.settings.embedder).toMatchObject({ provider: 'none', baseUrl: '' });
    expect(resolved.settings.timezone).toBe('UTC');
    expect(resolved.trust.ignored.map((i) => i.key).sort()).toEqual([
      'embedder.apiKeyEnv',
      'embedder.baseUrl',
      'embedder.provider',
      'summarizer.apiKeyEnv',
      'summarizer.baseUrl',
      'summarizer.provider',
    ]);
    expect(resolved.warnings.filter((w) => w.includes('cairn trust'))).toHaveLength(6);
    expect(resolved.sources['summarizer.baseUrl']).toEqual({ kind: 'default' });
  });

  it('honours them once trusted, and any byte change revokes the trust', async () => {
    await writeFile(projectFile(), JSON.stringify(remote));
    const change = await trust();
    expect(change.changed).toBe(true);
    const trusted = resolve();
    expect(trusted.trust).toMatchObject({ projectConfig: 'trusted', ignored: [] });
    expect(trusted.settings.summarizer.baseUrl).toBe('http://127.0.0.1:9/v1');
    expect(trusted.settings.embedder.apiKeyEnv).toBe('AWS_KEY');
    expect((await trust()).changed).toBe(false);

    await writeFile(projectFile(), `${JSON.stringify(remote)}\n`);
    expect(resolve().trust.projectConfig).toBe('untrusted');
    expect(resolve().settings.summarizer.baseUrl).toBe('');

    await trust();
    expect(resolve().trust.projectConfig).toBe('trusted');
    expect((await revokeProjectConfig(projectFile(), { env: env() })).changed).toBe(true);
    expect(resolve().trust.projectConfig).toBe('untrusted');
  });

  it('always honours the user config, CAIRN_* env and explicit options', async () => {
    await writeFile(userFile(), JSON.stringify({ summarizer: remote.summarizer }));
    await writeFile(projectFile(), JSON.stringify({ summarizer: { baseUrl: 'http://evil/v1' } }));
    const resolved = resolve({ CAIRN_EMBEDDER_PROVIDER: 'openai' });
    expect(resolved.settings.summarizer.baseUrl).toBe('http://127.0.0.1:9/v1');
    expect(resolved.sources['summarizer.baseUrl']).toMatchObject({ kind: 'user' });
    expect(resolved.settings.embedder.provider).toBe('openai');
    expect(resolved.trust.ignored).toEqual([
      { key: 'summarizer.baseUrl', reason: 'sends data off the machine' },
    ]);
    const options = resolveSettings({
      projectRoot: project,
      homeDir: home,
      env: env(),
      overrides: { embedder: { baseUrl: 'http://127.0.0.1:1/v1' } },
    });
    expect(options.settings.embedder.baseUrl).toBe('http://127.0.0.1:1/v1');
  });

  it('lets safe values through: offline providers, "" keys, local model folders', async () => {
    await writeFile(
      projectFile(),
      JSON.stringify({
        summarizer: { provider: 'extractive', apiKeyEnv: '' },
        embedder: { provider: 'hash', modelDir: 'models', allowDownload: false },
      }),
    );
    const resolved = resolve();
    expect(resolved.trust.ignored).toEqual([]);
    expect(resolved.settings.embedder).toMatchObject({ provider: 'hash', modelDir: 'models' });
    await writeFile(
      projectFile(),
      JSON.stringify({ embedder: { modelDir: '/opt/models', allowDownload: true } }),
    );
    expect(resolve().trust.ignored.map((i) => i.key)).toEqual([
      'embedder.modelDir',
      'embedder.allowDownload',
    ]);
  });

  it('filters backend options key by key with the table the backend registered', async () => {
    registerBackendOptionTrust('trust-test', {
      command: 'exec',
      collection: false,
      uri: localPathRule,
    });
    await writeFile(
      projectFile(),
      JSON.stringify({
        memoryBackendType: 'trust-test',
        memoryBackendOptions: {
          command: ['sh', '-c', 'id'],
          collection: 'notes',
          uri: 's3://bucket/x',
          later: 1,
        },
      }),
    );
    const resolved = resolve();
    expect(resolved.settings.memoryBackendOptions).toEqual({ collection: 'notes' });
    expect(resolved.trust.ignored).toEqual([
      { key: 'memoryBackendOptions.command', reason: 'runs a program' },
      { key: 'memoryBackendOptions.uri', reason: 'sends data off the machine' },
      {
        key: 'memoryBackendOptions.later',
        reason: 'not classified as safe for the "trust-test" backend',
      },
    ]);
    await trust();
    expect(resolve().settings.memoryBackendOptions).toMatchObject({ uri: 's3://bucket/x' });
  });

  it('drops every backend option when the backend declared no table', async () => {
    await writeFile(
      projectFile(),
      JSON.stringify({ memoryBackendType: 'undeclared', memoryBackendOptions: { a: 1 } }),
    );
    expect(resolve().settings.memoryBackendOptions).toEqual({});
  });

  it('refuses a config that is a link, wherever it points: never read, never trusted', async () => {
    const target = join(dir, 'shared.json');
    await writeFile(target, JSON.stringify(remote));
    await symlink(target, projectFile());
    // Even a target the user trusted: a repository ships links, so none is followed.
    await trust();
    expect(() => resolve()).toThrow(
      expect.objectContaining({
        code: 'INVALID_PATH',
        details: expect.objectContaining({ reason: 'symlink' }),
      }),
    );
  });

  it('reports a missing config as absent and refuses to trust it', async () => {
    expect(resolve().trust).toMatchObject({ projectConfig: 'absent', ignored: [] });
    await expect(trust()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps every entry when several projects are trusted at once', async () => {
    const projects = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const root = join(dir, `p${i}`);
        await mkdir(join(root, '.cairn'), { recursive: true });
        await writeFile(join(root, '.cairn', 'config.json'), JSON.stringify({ timezone: 'UTC' }));
        return root;
      }),
    );
    await Promise.all(
      projects.map((root) =>
        trustProjectConfig(join(root, '.cairn', 'config.json'), { env: env() }),
      ),
    );
    for (const root of projects) {
      const resolved = resolveSettings({ projectRoot: root, homeDir: home, env: env() });
      expect(resolved.trust.projectConfig).toBe('trusted');
    }
  });

  it('keeps the store private, under XDG_STATE_HOME when set', async () => {
    await writeFile(projectFile(), '{}');
    const change = await trust();
    expect(change.storePath).toBe(join(home, '.local', 'state', 'cairn', 'trusted-projects.json'));
    expect((await stat(change.storePath)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, '.local', 'state', 'cairn'))).mode & 0o777).toBe(0o700);
    const state = join(dir, 'state');
    expect(trustStorePath({ env: { XDG_STATE_HOME: state } })).toBe(
      join(state, 'cairn', 'trusted-projects.json'),
    );
  });

  it('treats a malformed store as trusting nothing, with a warning', async () => {
    await writeFile(projectFile(), JSON.stringify(remote));
    await mkdir(join(home, '.local', 'state', 'cairn'), { recursive: true });
    await writeFile(join(home, '.local', 'state', 'cairn', 'trusted-projects.json'), '{oops');
    const resolved = resolve();
    expect(resolved.trust.projectConfig).toBe('untrusted');
    expect(resolved.warnings.join('\n')).toMatch(/trust store .* is malformed/);
  });
});

describe('a trust store that fails the ownership rule', () => {
  const storeDir = () => join(home, '.local', 'state', 'cairn');
  const store = () => join(storeDir(), 'trusted-projects.json');

  async function trustedThenTampered(tamper: () => Promise<void>) {
    await writeFile(projectFile(), JSON.stringify(remote));
    await trust();
    expect(resolve().trust.projectConfig).toBe('trusted');
    await tamper();
    // Folders above are checked once per process: a new process sees the change.
    forgetSoundFolders();
    return resolve();
  }

  it('trusts nothing when others can write it (0666), naming the file and `chmod go-w`', async () => {
    const resolved = await trustedThenTampered(() => chmod(store(), 0o666));
    expect(resolved.trust.projectConfig).toBe('untrusted');
    expect(resolved.settings.summarizer.baseUrl).toBe('');
    expect(resolved.warnings).toContain(
      `the trust store ${store()} is not used (no project config is trusted): it can be written by group or others; run \`chmod go-w ${store()}\` (see docs/SECURITY.md#per-user-files-and-folders)`,
    );
  });

  it('trusts nothing when a folder above it is writable by others', async () => {
    const resolved = await trustedThenTampered(() => chmod(join(home, '.local'), 0o777));
    expect(resolved.trust.projectConfig).toBe('untrusted');
    expect(resolved.warnings.join('\n')).toContain(`run \`chmod go-w ${join(home, '.local')}\``);
  });

  it.runIf(process.getuid?.() === 0)(
    'trusts nothing when another user owns it, or a folder above it (needs root to chown)',
    async () => {
      const resolved = await trustedThenTampered(() => chown(store(), 65534, 65534));
      expect(resolved.trust.projectConfig).toBe('untrusted');
      expect(resolved.warnings.join('\n')).toMatch(
        /belongs to another user \(uid 65534\).*chown root/,
      );
      await chown(store(), 0, 0);
      expect(resolve().trust.projectConfig).toBe('trusted');
      await chown(join(home, '.local'), 65534, 65534);
      forgetSoundFolders();
      expect(resolve().trust.projectConfig).toBe('untrusted');
    },
  );

  it('is neither read nor rewritten by `cairn trust`: INVALID_CONFIG names the fix', async () => {
    await writeFile(projectFile(), JSON.stringify(remote));
    await trust();
    const before = await readFile(store(), 'utf8');
    await chmod(store(), 0o666);
    await writeFile(projectFile(), '{}');
    const error = await trust().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(CairnError.isInstance(error) && error.code).toBe('INVALID_CONFIG');
    expect((error as Error).message).toContain(`chmod go-w ${store()}`);
    expect(await readFile(store(), 'utf8')).toBe(before);
  });

  it('is not created below a folder others can write', async () => {
    await writeFile(projectFile(), '{}');
    const open = join(dir, 'open');
    await mkdir(open);
    await chmod(open, 0o777);
    const location = { env: { XDG_STATE_HOME: join(open, 'state') } };
    const error = await trustProjectConfig(projectFile(), location).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(CairnError.isInstance(error) && error.code).toBe('INVALID_CONFIG');
    expect((error as Error).message).toContain(`chmod go-w ${open}`);
    expect(await readdir(open)).toEqual([]);
  });
});

describe('config strictness', () => {
  it('rejects a group key that is not an object, naming the file and key', async () => {
    await writeFile(projectFile(), '{"limits":5}');
    const error = thrown(() => resolve());
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.message).toContain('"limits"');
    expect(error.message).toContain(projectFile());
  });

  it('accepts only plain decimal numbers from env', () => {
    for (const bad of ['0x10', '1e3', ' 12abc', '', 'Infinity']) {
      const error = thrown(() => resolve({ CAIRN_LIMITS_SEARCH_LIMIT: bad }));
      expect(error.code, bad).toBe('INVALID_CONFIG');
      expect(error.message).toContain('env CAIRN_LIMITS_SEARCH_LIMIT');
      expect(error.message).toContain('plain decimal');
    }
    expect(resolve({ CAIRN_LIMITS_SEARCH_LIMIT: '12' }).settings.limits.searchLimit).toBe(12);
    expect(resolve({ CAIRN_SEARCH_MIN_SIMILARITY: '-1' }).settings.search.minSimilarity).toBe(-1);
    expect(resolve({ CAIRN_SEARCH_MMR_LAMBDA: '0.5' }).settings.search.mmrLambda).toBe(0.5);
  });

  it('says when a JSON variable is not valid JSON', () => {
    const error = thrown(() => resolve({ CAIRN_MEMORY_BACKEND_OPTIONS: '{command:' }));
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.message).toMatch(/CAIRN_MEMORY_BACKEND_OPTIONS: not valid JSON/);
  });

  it('rejects a boolean variable that is not a boolean word', () => {
    expect(thrown(() => resolve({ CAIRN_SEARCH_MMR: 'maybe' })).code).toBe('INVALID_CONFIG');
    expect(resolve({ CAIRN_SEARCH_MMR: 'yes' }).settings.search.mmr).toBe(true);
  });

  it('warns about unknown CAIRN_* variables, not about known runtime ones', () => {
    const { warnings } = resolve({
      CAIRN_LIMIT_SEARCH: '3',
      CAIRN_AGENT_ID: 'x',
      CAIRN_TEST_ANYTHING: '1',
    });
    expect(warnings).toEqual([
      'unknown environment variable CAIRN_LIMIT_SEARCH is ignored (see docs/CONFIG.md)',
    ]);
  });
});
