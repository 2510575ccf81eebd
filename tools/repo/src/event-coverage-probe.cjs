'use strict';
/*
 * Preloaded (`node --require`) into one hook process by
 * prompt-hook-coverage.ts. It turns V8's precise coverage on before the
 * launcher runs, and splits the run in two where the CLI bundle's module
 * set-up returns (the bundles load through vm.Script, compile-cache.ts):
 * what ran until then goes to `<dir>/setup/`, and what ran while the event
 * was handled, read from counters V8 reset at that point, to `<dir>/event/`.
 * A long-lived process (the hook server) is split where the caller says:
 * each SIGUSR2 saves what ran since the last save to `<dir>/mark-<n>/`.
 * Every file has NODE_V8_COVERAGE's shape, for hook-coverage.ts. V8
 * leaves out of a take the functions that did not run since the last, the
 * scripts' top levels among them; the event's file gets them back with a
 * count of 0, since hook-coverage.ts reads a bundle's layout from them.
 * A same-thread inspector session answers synchronously.
 */
const { Session } = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const vm = require('node:vm');

const dir = process.env.CAIRN_EVENT_COVERAGE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

  /** Each script's functions that span it whole (its top level), by URL, counts set to 0. */
  const topLevels = new Map();
  const keepTopLevels = (scripts) => {
    for (const script of scripts) {
      const end = Math.max(...script.functions.map((fn) => fn.ranges[0]?.endOffset ?? 0));
      const tops = script.functions.filter((fn) => (fn.ranges[0]?.endOffset ?? -1) >= end - 2);
      topLevels.set(
        script.url,
        tops.map((fn) => ({ ...fn, ranges: [{ ...fn.ranges[0], count: 0 }] })),
      );
    }
  };
  const withTopLevels = (scripts) =>
    scripts.map((script) => ({
      ...script,
      functions: [...(topLevels.get(script.url) ?? []), ...script.functions],
    }));

  /** Takes the coverage since the last take (V8 resets its counters) into `<dir>/<part>/`. */
  const save = (part) =>
    session.post('Profiler.takePreciseCoverage', (error, coverage) => {
      if (error) throw error;
      if (part === 'setup') keepTopLevels(coverage.result);
      const result = part === 'setup' ? coverage.result : withTopLevels(coverage.result);
      mkdirSync(join(dir, part), { recursive: true });
      writeFileSync(join(dir, part, `coverage-${process.pid}.json`), JSON.stringify({ result }));
    });

  let split = false;
  const runInThisContext = vm.Script.prototype.runInThisContext;
  vm.Script.prototype.runInThisContext = function (...args) {
    const wrapper = runInThisContext.apply(this, args);
    if (split || typeof wrapper !== 'function') return wrapper;
    return function (...wrapperArgs) {
      const result = wrapper.apply(this, wrapperArgs);
      if (!split) {
        split = true;
        save('setup');
      }
      return result;
    };
  };
  process.on('exit', () => save(split ? 'event' : 'setup'));
  let marks = 0;
  process.on('SIGUSR2', () => {
    marks += 1;
    save(`mark-${marks}`);
  });
}
