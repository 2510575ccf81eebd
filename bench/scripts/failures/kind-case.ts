import type { FailureCase, FailureRun } from './failure-case';
import { cdTo, PLACES, type Place, testPath } from './js-test-cases';

/**
 * Failures of kinds the first seven scenarios (js-test-cases.ts) never
 * met: timeouts, setup hooks and fixtures, snapshots, errors after a test
 * ended, files that fail to load, parametrized tests, long diffs, one
 * test name in two suites, colours and reporters, other tests around the
 * failing one. Each kind is written once per runner (js-kind-cases.ts,
 * native-kind-cases.ts) and run for real in two to four places; its fix
 * label says which tests fail, in which file, and how, from the scenario
 * alone, never from a signature.
 */

/** The kinds, as the labels' `kind` field names them. */
export type FailureKind =
  | 'timeout'
  | 'setup-hook'
  | 'snapshot'
  | 'after-test'
  | 'load'
  | 'parametrized'
  | 'long-diff'
  | 'same-name'
  | 'reporter'
  | 'ordering';

/** One run of a kind's scenario: the files (relative to the place's folder) and how it differs. */
export interface KindRun {
  /** File name → content; the first one is the test file the command names. */
  files: Record<string, string>;
  /** The runner's command for the test file's path; the runner's default when absent. */
  command?: (path: string) => string;
  env?: Record<string, string | undefined>;
}

export interface KindScenario {
  kind: FailureKind;
  name: string;
  /** What a person fixes, from the scenario: `fix-failing-test:queue>queue>waits:timeout`. */
  fix: string;
  heldOut?: boolean;
  /** The scenario's setting `v` in the place `place` (values, timings, padding). */
  run(v: number, place: Place): KindRun;
  places?: Place[];
}

export interface KindRunner {
  ecosystem: string;
  tool: string;
  command(path: string, v: number): string;
  /** Files every project of this runner needs (package.json, Cargo.toml…), per place folder. */
  extra(place: Place, v: number): Record<string, string>;
  /** Shell steps before the run (linking the installed JS runners). */
  setup?(place: Place): string;
}

/** A kind's scenario as a failure case of one runner: each place is one run. */
export function kindCase(runner: KindRunner, scenario: KindScenario): FailureCase {
  const places = scenario.places ?? PLACES;
  return {
    ecosystem: runner.ecosystem,
    name: `${scenario.kind}-${scenario.name}`,
    fix: scenario.fix,
    tool: runner.tool,
    kind: scenario.kind,
    ...(scenario.heldOut ? { heldOut: true } : {}),
    runs: places.map((place, v): FailureRun => {
      const run = scenario.run(v, place);
      const [testFile] = Object.keys(run.files);
      const path = testPath(place, testFile ?? '');
      const files: Record<string, string> = { ...runner.extra(place, v) };
      for (const [name, content] of Object.entries(run.files))
        files[`${place.dir}${name}`] = content;
      return {
        command: `${cdTo(place)}${run.command ? run.command(path) : runner.command(path, v)}`,
        files,
        ...(runner.setup ? { setup: runner.setup(place) } : {}),
        ...(run.env ? { env: run.env } : {}),
      };
    }),
  };
}

/** Colours forced on (the capture turns them off by default with NO_COLOR). */
export const COLOUR = { NO_COLOR: undefined, FORCE_COLOR: '1' };

/** Places at the project's root only, with lines moved: for runs that differ by flags. */
export const ROOT_PLACES: Place[] = [0, 1, 2, 3].map((padLines) => ({
  dir: '',
  cwd: '',
  padLines,
}));
