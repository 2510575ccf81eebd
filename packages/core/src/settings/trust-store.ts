import {
  chmodSync,
  readFileSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { lazySchema, safeParse } from '../contracts/schemas';
import { CairnError } from '../errors';
import { withFileLock } from '../file-lock';
import { randomUuid, sha256Hex } from '../node-crypto';
import { checkUserPath, type UserPathProblem } from '../user-paths/owner-rule';
import { ensureUserDir, userPathWarning } from '../user-paths/user-dir';
import { userStateDir } from '../user-paths/user-dirs';

/**
 * The user's record of trusted project configs: the real path of each
 * `.cairn/config.json` mapped to the sha256 of the bytes the user trusted.
 * It lives in the user's state dir, never in a repository, so a repository
 * cannot trust itself; any byte change to the file revokes the trust.
 */
export const TRUST_STORE_FILE = 'trusted-projects.json';

const entrySchema = lazySchema(() => z.object({ sha256: z.string(), trustedAt: z.string() }));
const storeSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    projects: z.record(z.string(), entrySchema),
  }),
);
export type TrustStore = z.infer<typeof storeSchema>;

export interface TrustStoreLocation {
  env?: NodeJS.ProcessEnv;
  /** Defaults to `$HOME` from `env`, then the current user's home directory. */
  homeDir?: string;
}

/** `$XDG_STATE_HOME/cairn/trusted-projects.json`, default `~/.local/state/cairn/…`. */
export function trustStorePath(location: TrustStoreLocation = {}): string {
  const env = location.env ?? process.env;
  const home = location.homeDir ?? (env.HOME || homedir());
  return join(userStateDir(env, home), TRUST_STORE_FILE);
}

const NOTHING_TRUSTED = 'no project config is trusted';

/**
 * Reads the store; a missing file is empty, a broken one is empty with a
 * warning. So is a store that fails the ownership rule (it, or a folder
 * above it, belongs to someone else or is writable by others): whoever can
 * write it could trust any repository, so nothing is trusted (fail closed).
 */
export function readTrustStore(file: string): { store: TrustStore; warning?: string } {
  const empty: TrustStore = { version: 1, projects: {} };
  const problem = checkUserPath(file, { kind: 'file' });
  if (problem?.code === 'missing') return { store: empty };
  if (problem) {
    return {
      store: empty,
      warning: userPathWarning('the trust store', file, problem, NOTHING_TRUSTED),
    };
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { store: empty };
    return { store: empty, warning: `cannot read the trust store ${file}; no project is trusted` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = safeParse(storeSchema, parsed);
  if (result.success) return { store: result.data };
  return { store: empty, warning: `the trust store ${file} is malformed; no project is trusted` };
}

/** The key a config is trusted under: its real path (a symlink is trusted as its target). */
export function trustKey(configFile: string): string {
  try {
    return realpathSync(configFile);
  } catch {
    return configFile;
  }
}

/** Whether these bytes of `configFile` are the ones the user trusted. */
export function isTrusted(store: TrustStore, configFile: string, sha256: string): boolean {
  return store.projects[trustKey(configFile)]?.sha256 === sha256;
}

function writeStore(file: string, store: TrustStore): void {
  const dir = dirname(file);
  chmodSync(dir, 0o700);
  const temp = join(dir, `.${TRUST_STORE_FILE}.${process.pid}.${randomUuid()}`);
  try {
    writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {}
    throw new CairnError('WRITE_FAILED', `Cannot write the trust store ${file}`, {
      cause: error,
      hint: 'check that the state directory is writable (XDG_STATE_HOME or ~/.local/state)',
    });
  }
}

/**
 * A store whose file or folders fail the ownership rule is neither read
 * nor rewritten: the user fixes the path (or points XDG_STATE_HOME at a
 * folder of their own) first, and nothing changes.
 */
function refuseUnsound(storePath: string, problem: UserPathProblem | undefined): void {
  if (!problem) return;
  throw new CairnError(
    'INVALID_CONFIG',
    `Cannot use the trust store ${storePath}: ${problem.path} ${problem.problem}`,
    {
      hint: `run \`${problem.fix}\`, or set XDG_STATE_HOME to a folder of your own`,
      details: { path: problem.path, problem: problem.code },
    },
  );
}

export interface TrustChange {
  storePath: string;
  configPath: string;
  /** The real path the trust is recorded under. */
  key: string;
  sha256?: string;
  /** Whether the store changed (false: already trusted, or nothing to revoke). */
  changed: boolean;
}

/**
 * Reads, changes and rewrites the store under a lock beside it, so two
 * `cairn trust` runs at once both land.
 */
async function updateStore(
  storePath: string,
  change: (store: TrustStore) => boolean,
): Promise<boolean> {
  refuseUnsound(storePath, ensureUserDir(dirname(storePath)));
  return withFileLock(`${storePath}.lock`, async () => {
    const existing = checkUserPath(storePath, { kind: 'file' });
    if (existing?.code !== 'missing') refuseUnsound(storePath, existing);
    const { store } = readTrustStore(storePath);
    const changed = change(store);
    if (changed) writeStore(storePath, store);
    return changed;
  });
}

/** Records the current bytes of `configFile` as trusted. Throws NOT_FOUND when there is no file. */
export async function trustProjectConfig(
  configFile: string,
  location: TrustStoreLocation = {},
  now: () => Date = () => new Date(),
): Promise<TrustChange> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(configFile);
  } catch (error) {
    throw new CairnError('NOT_FOUND', `There is no project config to trust at ${configFile}`, {
      cause: error,
      hint: 'create .cairn/config.json first, or pass --root <dir>',
    });
  }
  const storePath = trustStorePath(location);
  const key = trustKey(configFile);
  const sha256 = sha256Hex(bytes);
  const changed = await updateStore(storePath, (store) => {
    if (store.projects[key]?.sha256 === sha256) return false;
    store.projects[key] = { sha256, trustedAt: now().toISOString() };
    return true;
  });
  return { storePath, configPath: configFile, key, sha256, changed };
}

/** Removes the trust of `configFile` (the file need not exist any more). */
export async function revokeProjectConfig(
  configFile: string,
  location: TrustStoreLocation = {},
): Promise<TrustChange> {
  const storePath = trustStorePath(location);
  const key = trustKey(configFile);
  const changed = await updateStore(storePath, (store) => {
    if (!Object.hasOwn(store.projects, key)) return false;
    delete store.projects[key];
    return true;
  });
  return { storePath, configPath: configFile, key, changed };
}
