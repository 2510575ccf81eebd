import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { coveredSources } from './hook-coverage';
import { PROBE, withHookWorld } from './hook-world';

export interface PromptHookCoverage {
  /** Source files with a function that was called (absolute paths). */
  called: Set<string>;
  /** Source files with any code that ran, module set-up included. */
  setUp: Set<string>;
  /**
   * Source files with code that ran while the event was handled, after the
   * CLI bundle's module set-up returned: the path the prompt itself takes.
   */
  event: Set<string>;
  /** What the hook printed. */
  reply: string;
}

const HOOK = ['hook', 'claude-code', 'UserPromptSubmit'];

/**
 * Runs one Claude Code UserPromptSubmit event (the recorded fixture) the
 * way Claude Code runs it, as a `cairn hook` process of the built CLI in
 * `dir` with the hook server off, on a temp project holding one unit (after
 * one prompt of another session, so the index and compile cache exist), with
 * V8 coverage on (event-coverage-probe.cjs); returns the source files that
 * ran, through the bundles' source maps (hook-coverage.ts).
 */
export function promptHookCoverage(dir: string): PromptHookCoverage {
  return withHookWorld(dir, (world) => {
    const coverage = join(world.temp, 'coverage');
    // A first prompt, in another session, leaves what every later one finds: the search index
    // built and the CLI's compile cache written. The measured prompt is the everyday one.
    world.run(HOOK, {}, world.prompt('warm-up'));
    const { stdout: reply } = world.run(
      HOOK,
      { CAIRN_EVENT_COVERAGE_DIR: coverage },
      world.prompt('measured'),
      ['--require', PROBE],
    );
    const [setUpPart, eventPart] = ['setup', 'event'].map((part) => join(coverage, part));
    for (const part of [setUpPart!, eventPart!]) mkdirSync(part, { recursive: true });
    const both = (calledOnly: boolean) =>
      new Set([
        ...coveredSources(setUpPart!, dir, calledOnly),
        ...coveredSources(eventPart!, dir, calledOnly),
      ]);
    return {
      called: both(true),
      setUp: both(false),
      event: coveredSources(eventPart!, dir, false),
      reply,
    };
  });
}
