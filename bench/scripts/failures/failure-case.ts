/**
 * One real failure, produced by running the real tool in a fresh temp dir
 * several times, each time in another setting (other file names, line
 * numbers, ports, temp dirs), so that same-fix pairs exist.
 */
export interface FailureRun {
  /** The command line as an agent would type it; run with `bash -c` in the temp dir. */
  command: string;
  /** Files written into the temp dir before the run (relative path → content). */
  files?: Record<string, string>;
  /** Shell steps run before the command (their output is dropped): git repos, ports. */
  setup?: string;
  /** Variables set (a string) or unset (undefined) for this run only: colours forced on. */
  env?: Record<string, string | undefined>;
}

export interface FailureCase {
  /** bench/fixtures/failures/<ecosystem>/ */
  ecosystem: string;
  /** Unique within the ecosystem: the fixture files are `<name>-<n>.txt`. */
  name: string;
  /** What a person would do about it: `install-missing-module:django`. Same id, same fix. */
  fix: string;
  /** The program that printed the error. */
  tool: string;
  runs: FailureRun[];
  /** Kept out of any tuning of the signature rules: the bench reports it apart. */
  heldOut?: boolean;
  /** The kind of test failure (kind-case.ts) for the cases beyond the first seven scenarios. */
  kind?: string;
}

/** One label line of bench/fixtures/failures/labels.jsonl (and modelled.jsonl). */
export interface FailureLabel {
  /** Relative to bench/fixtures/failures/. */
  file: string;
  ecosystem: string;
  case: string;
  fix: string;
  tool: string;
  command: string;
  /** The exit code of the command (undefined for modelled outputs). */
  exitCode?: number;
  /** `captured` here by scripts/capture-failures.ts, or `modelled on <address of the format>`. */
  source: string;
  /** Kept out of any tuning of the signature rules (the bench reports it apart). */
  heldOut?: boolean;
  /** The kind of test failure, for the cases of kind-case.ts (the bench reports them apart). */
  kind?: string;
}

/** `n` settings of one failure: `make(v)` for v = 0..n-1. */
export function variants(n: number, make: (v: number) => FailureRun): FailureRun[] {
  return Array.from({ length: n }, (_, v) => make(v));
}

/** `v * step` comment lines, so the failing line moves between settings. */
export function pad(v: number, comment = '//', step = 7): string {
  return Array.from({ length: v * step }, (_, i) => `${comment} padding ${i}\n`).join('');
}

/** A value from a list by setting: file names, identifiers, ports. */
export function pick<T>(values: readonly T[], v: number): T {
  return values[v % values.length] as T;
}

/** Ports that differ per setting (and per capture, so none is a constant). */
export function port(v: number): number {
  return 20_000 + ((v * 7919 + process.pid * 13) % 30_000);
}
