/**
 * Regenerates the signature corpus: runs every case of ./failures/ with the
 * real tool in a fresh temp dir (node, tsc, npm, pnpm, python3, pip, pytest,
 * cargo, rustc, javac, java, mvn, git, bash, sh, make, docker, and the test
 * runners node:test, vitest, jest, mocha, ava, tap, pytest, unittest and
 * cargo test), and writes
 * what it printed (stdout and stderr, interleaved) to
 * bench/fixtures/failures/<ecosystem>/<case>-<n>.txt, with one label line
 * per output in bench/fixtures/failures/labels.jsonl.
 *
 *   pnpm --filter @cairn/bench exec tsx scripts/capture-failures.ts [ecosystem...]
 *
 * Nothing here touches the network: npm, pnpm and pip run offline, cargo
 * with --offline, mvn with -o, and docker has no daemon on the machines it
 * was made on (its "cannot connect" is one of the cases). The JS test
 * runners are the one exception: they are installed from npm once, at the
 * versions of RUNNERS, into a scratch folder every test run links
 * (`$CAPTURE_RUNNERS/node_modules`). Each run gets its own HOME, so no user
 * config leaks in. Go, JUnit (Maven Surefire, Gradle), RSpec, PHPUnit and
 * Playwright are not installed here: their outputs are modelled on the
 * formats public build logs show (failures/go-modelled.ts,
 * failures/test-runner-modelled.ts), with their labels in modelled.jsonl,
 * never mixed with the captured ones.
 * The bench (`pnpm bench signatures`) only reads the fixtures.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailureCase, FailureLabel, FailureRun } from './failures/failure-case';
import { GIT_CASES } from './failures/git-cases';
import { GO_CASES, type ModelledCase } from './failures/go-modelled';
import { JAVA_CASES } from './failures/java-cases';
import { JS_KIND_CASES } from './failures/js-kind-cases';
import { JS_TEST_CASES } from './failures/js-test-runners';
import { NATIVE_KIND_CASES } from './failures/native-kind-cases';
import { CARGO_TEST_CASES, PYTEST_TEST_CASES, UNITTEST_CASES } from './failures/native-test-cases';
import { NODE_CASES } from './failures/node-cases';
import { PACKAGE_MANAGER_CASES } from './failures/package-manager-cases';
import { ALL_PYTHON_CASES } from './failures/python-cases';
import { RUST_CASES } from './failures/rust-cases';
import { DOCKER_CASES, SHELL_CASES } from './failures/shell-cases';
import { TEST_RUNNER_MODELLED } from './failures/test-runner-modelled';
import { TYPESCRIPT_CASES } from './failures/typescript-cases';

const BENCH = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BENCH, '..');
const OUT = join(BENCH, 'fixtures/failures');

export const ALL_CASES: FailureCase[] = [
  ...NODE_CASES,
  ...TYPESCRIPT_CASES,
  ...PACKAGE_MANAGER_CASES,
  ...ALL_PYTHON_CASES,
  ...RUST_CASES,
  ...JAVA_CASES,
  ...GIT_CASES,
  ...SHELL_CASES,
  ...DOCKER_CASES,
  ...JS_TEST_CASES,
  ...PYTEST_TEST_CASES,
  ...UNITTEST_CASES,
  ...CARGO_TEST_CASES,
  ...JS_KIND_CASES,
  ...NATIVE_KIND_CASES,
];

/** The JS test runners, installed from npm at these versions for the test-runner cases. */
const RUNNERS = ['vitest@4.1.12', 'jest@30.5.2', 'mocha@12.0.3', 'ava@7.0.0', 'tap@21.8.0'];
const RUNNER_ECOSYSTEMS = new Set(JS_TEST_CASES.map((c) => c.ecosystem));

/**
 * Installs the JS test runners once (the only step that reaches the npm
 * registry); `CAPTURE_RUNNERS_DIR` names a folder where they are installed
 * already (at the same versions), to capture again without reinstalling.
 */
function installRunners(scratch: string): string {
  const ready = process.env.CAPTURE_RUNNERS_DIR;
  if (ready) return ready;
  const dir = join(scratch, 'runners');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "runners", "private": true }\n');
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', ...RUNNERS], {
    cwd: dir,
    stdio: 'inherit',
    timeout: 600_000,
  });
  if (result.status !== 0) throw new Error(`npm install ${RUNNERS.join(' ')} failed`);
  return dir;
}

/** A bin dir so that `tsc` in a command is the repository's TypeScript. */
function toolBin(root: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(REPO, 'node_modules/typescript/bin/tsc'), join(bin, 'tsc'));
  return bin;
}

function environment(home: string, bin: string, runners: string): NodeJS.ProcessEnv {
  const pythonBin = process.env.CAPTURE_PYTHON_BIN ?? '/root/.pyenv/versions/3.11.7/bin';
  return {
    HOME: home,
    PATH: [bin, pythonBin, '/root/.cargo/bin', '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    CARGO_HOME: process.env.CARGO_HOME ?? '/root/.cargo',
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? '/root/.rustup',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    PIP_NO_INDEX: '1',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    NPM_CONFIG_OFFLINE: 'true',
    PYTHONDONTWRITEBYTECODE: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    CAPTURE_RUNNERS: runners,
  };
}

interface Captured {
  output: string;
  exitCode: number;
}

function capture(run: FailureRun, env: NodeJS.ProcessEnv, scratch: string): Captured {
  // A fresh, randomly named folder per run: the temp path is one of the things that vary.
  const cwd = mkdtempSync(join(scratch, 'w-'));
  for (const [path, content] of Object.entries(run.files ?? {})) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), content);
  }
  if (run.setup) {
    spawnSync('bash', ['-c', run.setup], { cwd, env, stdio: 'ignore', timeout: 60_000 });
  }
  const runEnv = { ...env };
  for (const [name, value] of Object.entries(run.env ?? {})) {
    if (value === undefined) delete runEnv[name];
    else runEnv[name] = value;
  }
  const result = spawnSync('bash', ['-c', `exec 2>&1\n${run.command}`], {
    cwd,
    env: runEnv,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 16 << 20,
  });
  return { output: result.stdout ?? '', exitCode: result.status ?? 128 };
}

function captureCase(
  c: FailureCase,
  scratch: string,
  bin: string,
  runners: string,
): FailureLabel[] {
  const labels: FailureLabel[] = [];
  c.runs.forEach((run, index) => {
    const home = mkdtempSync(join(scratch, 'home-'));
    writeFileSync(
      join(home, '.gitconfig'),
      '[user]\n\tname = Capture\n\temail = capture@example.com\n[init]\n\tdefaultBranch = main\n',
    );
    const env = environment(home, bin, runners);
    const got = capture(run, env, scratch);
    if (got.exitCode === 0) {
      process.stderr.write(`warning: ${c.ecosystem}/${c.name}-${index + 1} exited 0\n`);
    }
    const file = `${c.ecosystem}/${c.name}-${index + 1}.txt`;
    writeFileSync(join(OUT, file), got.output);
    labels.push({
      file,
      ecosystem: c.ecosystem,
      case: c.name,
      fix: c.fix,
      tool: c.tool,
      command: run.command,
      exitCode: got.exitCode,
      source: 'captured',
      ...(c.heldOut ? { heldOut: true } : {}),
      ...(c.kind ? { kind: c.kind } : {}),
    });
  });
  return labels;
}

/**
 * The cases the arguments name: ecosystems (`node git`), or `kinds` for
 * the failure kinds of failures/kind-case.ts, or single cases
 * (`ava/timeout-waits`); the last two replace their own outputs and
 * labels and leave the rest of each ecosystem as it is.
 */
function selectCases(only: Set<string>): { cases: FailureCase[]; whole: boolean } {
  if (only.has('kinds')) return { cases: ALL_CASES.filter((c) => c.kind), whole: false };
  if ([...only].some((arg) => arg.includes('/')))
    return { cases: ALL_CASES.filter((c) => only.has(`${c.ecosystem}/${c.name}`)), whole: false };
  return { cases: ALL_CASES.filter((c) => only.size === 0 || only.has(c.ecosystem)), whole: true };
}

function main(): void {
  const only = new Set(process.argv.slice(2).filter((arg) => arg !== '--'));
  const { cases, whole } = selectCases(only);
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-capture-'));
  const bin = toolBin(scratch);
  const labels: FailureLabel[] = [];
  try {
    const runners = cases.some((c) => RUNNER_ECOSYSTEMS.has(c.ecosystem))
      ? installRunners(scratch)
      : '';
    for (const ecosystem of new Set(cases.map((c) => c.ecosystem))) {
      if (whole) rmSync(join(OUT, ecosystem), { recursive: true, force: true });
      mkdirSync(join(OUT, ecosystem), { recursive: true });
    }
    for (const c of cases) {
      process.stdout.write(`${c.ecosystem}/${c.name} (${c.runs.length})\n`);
      labels.push(...captureCase(c, scratch, bin, runners));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const replaced = whole
    ? (label: FailureLabel) => cases.some((c) => c.ecosystem === label.ecosystem)
    : (label: FailureLabel) =>
        cases.some((c) => `${c.ecosystem}/${c.name}` === `${label.ecosystem}/${label.case}`);
  writeLabels(labels, replaced);
  const modelled = new Set(['modelled', ...MODELLED.map((c) => c.ecosystem)]);
  if (only.size === 0 || [...only].some((name) => modelled.has(name))) writeModelled();
  process.stdout.write(`${labels.length} outputs captured into ${OUT}\n`);
}

/** Every modelled case: Go, and the test runners not installed here. */
const MODELLED: ModelledCase[] = [...GO_CASES, ...TEST_RUNNER_MODELLED];

/** The modelled outputs, written from their templates (failures/go-modelled.ts, failures/test-runner-modelled.ts). */
function writeModelled(): void {
  const labels: FailureLabel[] = [];
  for (const ecosystem of new Set(MODELLED.map((c) => c.ecosystem))) {
    rmSync(join(OUT, ecosystem), { recursive: true, force: true });
    mkdirSync(join(OUT, ecosystem), { recursive: true });
  }
  for (const c of MODELLED) {
    c.runs.forEach((run, index) => {
      const file = `${c.ecosystem}/${c.name}-${index + 1}.txt`;
      writeFileSync(join(OUT, file), run.output);
      const { ecosystem, fix, tool } = c;
      labels.push({
        file,
        ecosystem,
        case: c.name,
        fix,
        tool,
        command: run.command,
        source: `modelled on ${c.format}`,
        ...(c.heldOut ? { heldOut: true } : {}),
      });
    });
  }
  const lines = labels.map((label) => JSON.stringify(label)).join('\n');
  writeFileSync(join(OUT, 'modelled.jsonl'), `${lines}\n`);
  process.stdout.write(`${labels.length} outputs modelled\n`);
}

/** Replaces the label lines of the cases captured now; keeps the others. */
function writeLabels(fresh: FailureLabel[], replaced: (label: FailureLabel) => boolean): void {
  const path = join(OUT, 'labels.jsonl');
  let kept: FailureLabel[] = [];
  try {
    kept = readLabels(path).filter((label) => !replaced(label));
  } catch {
    kept = [];
  }
  const all = [...kept, ...fresh].sort((a, b) => a.file.localeCompare(b.file));
  writeFileSync(path, `${all.map((label) => JSON.stringify(label)).join('\n')}\n`);
}

function readLabels(path: string): FailureLabel[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FailureLabel);
}

main();
