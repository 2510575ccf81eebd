import type { ResolvedSettings } from '@cairn/core';
import type { DoctorFinding } from './doctor-finding';

/** What the trust resolution adds to ResolvedSettings (read defensively: older cores lack it). */
interface TrustView {
  trust?: { projectConfig?: string; ignored?: Array<{ key: string; reason: string }> };
}

/**
 * THE place where settings findings plug in: settings of an untrusted
 * project config that were ignored. Each needs the user (trust the file or
 * move the setting to the user config).
 */
export function settingsFindings(resolved: ResolvedSettings): DoctorFinding[] {
  const ignored = (resolved as TrustView).trust?.ignored ?? [];
  return ignored.map(({ key, reason }) => ({
    severity: 'warning',
    area: 'settings',
    path: '.cairn/config.json',
    message: `the project config sets "${key}", which was ignored: ${reason}`,
    fix: 'if you trust this repository, trust the project config (docs/SECURITY.md); otherwise remove the key or set it in your user config',
  }));
}
