import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { coveredSources } from './hook-coverage';
import { type HookWorld, PROBE, withHookWorld } from './hook-world';

export interface ServerHookCoverage {
  /** Source files with code that ran in the hook process (it hands the event over). */
  client: Set<string>;
  /** Source files with code that ran in the hook server while it answered the event. */
  server: Set<string>;
  /** What the hook printed. */
  reply: string;
}

const HOOK = ['hook', 'claude-code', 'UserPromptSubmit'];
const TRIES = 100;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Waits (synchronously: this tool runs nothing else) until `path` exists. */
function waitFor(path: string, what: string): void {
  for (let tries = 0; !existsSync(path); tries += 1) {
    if (tries > TRIES) throw new Error(`timed out waiting for ${what}`);
    sleep(50);
  }
}

/** The pid of the hook server that answered, from the client's test trace. */
const answeredBy = (stderr: string) =>
  Number(/answered by hook server (\d+)/.exec(stderr)?.[1] ?? Number.NaN);

/**
 * Prompts until the hook server answers one: the first event starts it and
 * is answered in its own process; the first one it answers opens the project.
 */
function warmServer(world: HookWorld, env: NodeJS.ProcessEnv): number {
  for (let tries = 0; tries < TRIES; tries += 1) {
    const pid = answeredBy(world.run(HOOK, env, world.prompt(`warm-up-${tries}`)).stderr);
    if (Number.isInteger(pid)) return pid;
    sleep(50);
  }
  throw new Error('the hook server never answered');
}

/**
 * Runs one Claude Code UserPromptSubmit event as installed: the hook
 * process hands it to the hook server, which has the project open from an
 * earlier prompt. Both processes carry the coverage probe
 * (event-coverage-probe.cjs); the server's coverage is split by signals
 * just before and after the event. Returns the source files that ran in
 * each, through the bundles' source maps.
 */
export function serverHookCoverage(dir: string): ServerHookCoverage {
  return withHookWorld(dir, (world) => {
    const coverage = join(world.temp, 'coverage');
    // One environment for every event: the server keeps a project per environment, and
    // another one would open the project again for the measured prompt.
    const env = {
      CAIRN_HOOK_SERVER: 'on',
      CAIRN_TEST_HOOK_SERVER_TRACE: '1',
      NODE_OPTIONS: `--require ${PROBE}`,
      CAIRN_EVENT_COVERAGE_DIR: coverage,
    };
    // The server inherits the environment of the process that starts it.
    const pid = warmServer(world, env);
    try {
      const mark = (n: number) => {
        process.kill(pid, 'SIGUSR2');
        waitFor(join(coverage, `mark-${n}`, `coverage-${pid}.json`), `the server's mark ${n}`);
      };
      mark(1);
      const before = clientFiles(coverage, pid);
      const run = world.run(HOOK, env, world.prompt('measured'));
      if (answeredBy(run.stderr) !== pid) throw new Error('the measured prompt was not served');
      mark(2);
      // The hook process's own files: those it wrote, apart from every other process's.
      const mine = join(coverage, 'client');
      mkdirSync(mine);
      for (const file of clientFiles(coverage, pid).filter((file) => !before.includes(file))) {
        copyFileSync(file, join(mine, file.replaceAll('/', '_')));
      }
      return {
        client: coveredSources(mine, dir, false),
        server: coveredSources(join(coverage, `mark-2`), dir, false),
        reply: run.stdout,
      };
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
}

/** The coverage files of the hook processes (every process but the server), as paths. */
function clientFiles(coverage: string, serverPid: number): string[] {
  return ['setup', 'event'].flatMap((part) => {
    const folder = join(coverage, part);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((name) => name !== `coverage-${serverPid}.json`)
      .map((name) => join(folder, name));
  });
}
