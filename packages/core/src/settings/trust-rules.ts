/**
 * Which settings may only come from a trusted layer. A project's
 * `.cairn/config.json` is repository content: until the user trusts it
 * (`cairn trust`), a setting from it that runs a program or sends data off
 * the machine is ignored. See docs/SECURITY.md.
 */

/**
 * Why a setting needs trust: it runs a program, talks to the network, or
 * reads and writes files outside the project.
 */
export type TrustNeed = 'exec' | 'network' | 'filesystem';

/** One line per need, for warnings and docs. */
export const TRUST_NEED_REASONS: Record<TrustNeed, string> = {
  exec: 'runs a program',
  network: 'sends data off the machine',
  filesystem: 'reads or writes outside the project',
};

/**
 * A setting's trust rule: `false` (safe from any layer), a need that holds
 * for every value, or a function of the value (e.g. only `"openai"` needs it).
 */
export type TrustRule = false | TrustNeed | ((value: unknown) => TrustNeed | false);

/**
 * A backend's `memoryBackendOptions` keys and their rules, declared by the
 * backend package as static data (`<id>OptionTrust`). From an untrusted
 * layer, a key the table does not list is dropped: an option added later
 * is gated until someone classifies it.
 */
export type BackendOptionTrust = Readonly<Record<string, TrustRule>>;

/** What a rule says about one value. */
export function trustNeed(rule: TrustRule | undefined, value: unknown): TrustNeed | false {
  if (!rule) return false;
  return typeof rule === 'function' ? rule(value) : rule;
}

/** A path that stays inside the project: relative, no `..`, no scheme (so no `s3://`, no `C:`). */
export function isProjectLocalPath(value: unknown): boolean {
  if (typeof value !== 'string' || value === '') return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('/') || value.startsWith('\\')) {
    return false;
  }
  return !value.split(/[\\/]/).includes('..');
}

/** Rule for a path option: inside the project needs no trust; a URI is remote, any other path is outside. */
export const localPathRule = (value: unknown): TrustNeed | false => {
  if (isProjectLocalPath(value)) return false;
  return typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
    ? 'network'
    : 'filesystem';
};

/** Rule for `embedder` inside backend options: only the offline `{ id: "hash" }` form is safe. */
export const hashEmbedderRule = (value: unknown): TrustNeed | false =>
  typeof value === 'object' && value !== null && (value as { id?: unknown }).id === 'hash'
    ? false
    : 'network';

const policies = new Map<string, BackendOptionTrust>();

/** Registers a backend's option trust table (the engine does it when it loads the backend). */
export function registerBackendOptionTrust(type: string, trust: BackendOptionTrust): void {
  policies.set(type, trust);
}

export function getBackendOptionTrust(type: string): BackendOptionTrust | undefined {
  return policies.get(type);
}

export interface IgnoredSetting {
  key: string;
  reason: string;
}

/**
 * Splits backend options from an untrusted layer into what may be used and
 * what is ignored. Without a table for the backend, every key is ignored.
 */
export function filterUntrustedBackendOptions(
  type: string,
  options: Record<string, unknown>,
): { kept: Record<string, unknown>; ignored: IgnoredSetting[] } {
  const table = getBackendOptionTrust(type);
  const kept: Record<string, unknown> = {};
  const ignored: IgnoredSetting[] = [];
  for (const [key, value] of Object.entries(options)) {
    const rule = table && Object.hasOwn(table, key) ? table[key] : undefined;
    const need = rule === undefined ? 'unclassified' : trustNeed(rule, value);
    if (need === false) {
      kept[key] = value;
      continue;
    }
    ignored.push({
      key: `memoryBackendOptions.${key}`,
      reason:
        need === 'unclassified'
          ? `not classified as safe for the "${type}" backend`
          : TRUST_NEED_REASONS[need],
    });
  }
  return { kept, ignored };
}
