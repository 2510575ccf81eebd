import type { SettingDefinition } from './definitions';
import {
  filterUntrustedBackendOptions,
  type IgnoredSetting,
  TRUST_NEED_REASONS,
  trustNeed,
} from './trust-rules';

/** The trust state of the project config, as resolved. */
export interface SettingsTrust {
  projectConfig: 'absent' | 'trusted' | 'untrusted';
  /** sha256 hex of the project config file's bytes, when present. */
  hash?: string;
  /** Settings from the untrusted project file that were ignored. */
  ignored: IgnoredSetting[];
  /** The user's trust store (`cairn trust` writes it). */
  storePath: string;
}

/** What to do with one value from an untrusted project file. */
export interface GateResult {
  use: boolean;
  value: unknown;
  ignored: IgnoredSetting[];
}

/**
 * Gates one parsed value from an untrusted project file. Backend options
 * are filtered key by key with the table the backend declared (see
 * `registerBackendOptionTrust`); every other setting by its own rule.
 */
export function gateUntrusted(
  definition: SettingDefinition,
  value: unknown,
  resolvedSoFar: Record<string, unknown>,
): GateResult {
  if (definition.key === 'memoryBackendOptions') {
    const type = String(resolvedSoFar.memoryBackendType ?? '');
    const { kept, ignored } = filterUntrustedBackendOptions(type, value as Record<string, unknown>);
    return { use: true, value: kept, ignored };
  }
  const need = trustNeed(definition.trust, value);
  if (!need) return { use: true, value, ignored: [] };
  return {
    use: false,
    value,
    ignored: [{ key: definition.key, reason: TRUST_NEED_REASONS[need] }],
  };
}

/** The warning line for one ignored setting. */
export function ignoredWarning(ignored: IgnoredSetting, projectFile: string): string {
  return `ignored "${ignored.key}" from the untrusted project config ${projectFile} (${ignored.reason}); review the file and run \`cairn trust\` to allow it`;
}
