/** Where a finding was made; `cairn doctor --json` groups by it. */
export type DoctorArea = 'workspace' | 'database' | 'index' | 'settings' | 'working' | 'harness';

/**
 * One thing `cairn doctor` found. `error`: data is at risk or unreadable;
 * `warning`: nothing is lost but the user should act; `info`: for the
 * record. Errors and warnings make doctor exit 1.
 */
export interface DoctorFinding {
  severity: 'error' | 'warning' | 'info';
  area: DoctorArea;
  /** Project-relative path, when the finding is about one file. */
  path?: string;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  fix: string;
}

/** True when a finding asks the user to act. */
export function needsUser(findings: readonly DoctorFinding[]): boolean {
  return findings.some((finding) => finding.severity !== 'info');
}
