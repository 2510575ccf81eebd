import type { ResolvedSettings } from '@cairn/core';
import type { DoctorFinding } from './doctor-finding';

/**
 * Settings findings: each setting of an untrusted project config that was
 * ignored. They need the user (trust the file or move the setting to the
 * user config). `cairn doctor` prints them as its `! ignored …` lines.
 */
export function settingsFindings(resolved: ResolvedSettings): DoctorFinding[] {
  // Read defensively: a ResolvedSettings built by hand (tests, older callers) may lack trust.
  const ignored = (resolved as Partial<ResolvedSettings>).trust?.ignored ?? [];
  return ignored.map(({ key, reason }) => ({
    severity: 'warning',
    area: 'settings',
    path: '.cairn/config.json',
    message: `ignored ${key} from the untrusted project config (${reason})`,
    fix: 'run `cairn trust` to allow it, or set it in your user config',
  }));
}
