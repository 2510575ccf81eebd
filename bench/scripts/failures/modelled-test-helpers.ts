import type { TestScenario, TestSpec } from './js-test-cases';

/** What the modelled test runners share: places, names, lines and times that move. */

export interface ModelledRun {
  command: string;
  output: string;
}

/** One runner: the output of a scenario in place `v` (0..2). */
export type RunnerFormat = (scenario: TestScenario, v: number) => ModelledRun;

export const ROOTS = ['/home/dev/src/shop', '/builds/acme/shop', '/Users/sam/work/shop'];
export const NAMES = ['ada', 'bob', 'chen'];
export const failing = (s: TestScenario) => s.tests.filter((t) => t.outcome !== 'pass');
export const camel = (name: string) =>
  name.replace(/\s+(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/\W/g, '');
export const title = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;
/** A line number that moves with the place. */
export const lineOf = (s: TestScenario, test: TestSpec, v: number) =>
  5 + s.tests.indexOf(test) * 4 + v * 7;
/** A duration that differs per place and test. */
export const secs = (v: number, i = 0) => `0.0${(v * 3 + i * 2 + 1) % 10}${v + 2}`;
