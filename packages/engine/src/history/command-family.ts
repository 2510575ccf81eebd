/**
 * What kind of command failed, without its arguments: `pnpm install`,
 * `pnpm test`, `git push`, `pytest`. Two errors from different families
 * need different fixes even when their text is alike; two runs of one
 * family with other files, flags or values are the same thing.
 */

/** Programs whose first word after the flags is a subcommand worth keeping. */
const WITH_SUBCOMMAND = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'git',
  'go',
  'cargo',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'pip',
  'uv',
  'poetry',
  'gradle',
  'gradlew',
  'mvn',
  'mvnw',
  'make',
  'terraform',
  'gh',
  'turbo',
  'nx',
]);
/** Words that run the next word: the family is that word's. */
const RUNNERS = new Set([
  'sudo',
  'env',
  'time',
  'nice',
  'nohup',
  'exec',
  'command',
  'npx',
  'bunx',
  'uvx',
]);
/** `pnpm exec vitest`, `yarn dlx x`: the tool is the word after (`python -m pytest` too). */
const RUNNER_SUBCOMMANDS = new Set(['exec', 'dlx', 'x']);
/** Flags that take a value (skipped with it) before a subcommand. */
const VALUE_FLAGS = new Set([
  '--filter',
  '-F',
  '-C',
  '--dir',
  '--prefix',
  '--cwd',
  '-c',
  '-f',
  '--file',
]);
/** Steps that prepare rather than do: `cd x && pnpm test` is a `pnpm test`. */
const SETUP = new Set(['cd', 'export', 'source', '.', 'set', 'true', 'echo', 'pushd', 'popd']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1).toLowerCase();
  if (/^python\d/.test(base)) return 'python';
  if (/^pip\d/.test(base)) return 'pip';
  return base.replace(/\.(?:exe|cmd|bat)$/, '');
}

/** The first word that is not a flag (and not the value of a flag that takes one). */
function subcommandAt(words: readonly string[], from: number): number {
  for (let index = from; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (VALUE_FLAGS.has(word)) index += 1;
    else if (!word.startsWith('-')) return index;
  }
  return -1;
}

function segmentFamily(segment: string): string | undefined {
  const words = segment.trim().split(/\s+/).filter(Boolean);
  let at = 0;
  while (at < words.length && (ASSIGNMENT.test(words[at] ?? '') || RUNNERS.has(words[at] ?? '')))
    at += 1;
  const first = words[at];
  const program = first ? programName(first) : undefined;
  if (!program || SETUP.has(program)) return undefined;
  if (program === 'python') {
    const module = words[at + 1] === '-m' ? words[at + 2] : undefined;
    return module ? (segmentFamily(words.slice(at + 2).join(' ')) ?? 'python') : 'python';
  }
  const next = subcommandAt(words, at + 1);
  const sub = next < 0 ? undefined : words[next];
  if (sub && RUNNER_SUBCOMMANDS.has(sub)) {
    return segmentFamily(words.slice(next + 1).join(' ')) ?? program;
  }
  if (!WITH_SUBCOMMAND.has(program) || !sub) return program;
  // `pnpm run test` and `pnpm test` are one family.
  if (sub === 'run' && ['npm', 'pnpm', 'yarn', 'bun'].includes(program)) {
    const script = subcommandAt(words, next + 1);
    return script < 0 ? `${program} run` : `${program} ${words[script]}`;
  }
  return `${program} ${sub.toLowerCase()}`;
}

/** The families of a command line's steps, joined by `+` (at most three), or undefined. */
export function commandFamily(command: string | undefined): string | undefined {
  if (!command?.trim()) return undefined;
  const families: string[] = [];
  for (const segment of command.slice(0, 4096).split(/&&|\|\||[;|\n]/)) {
    const family = segmentFamily(segment);
    if (family && !families.includes(family)) families.push(family);
  }
  return families.length > 0 ? families.slice(0, 3).join('+') : undefined;
}

/** The harnesses' names for "run a shell command" are one tool here. */
const SHELL_TOOLS = new Set([
  'bash',
  'shell',
  'exec',
  'local_shell',
  'run_shell_command',
  'terminal',
]);

export function toolFamily(tool: string | undefined): string | undefined {
  if (!tool?.trim()) return undefined;
  const name = tool.trim().toLowerCase();
  return SHELL_TOOLS.has(name) ? 'shell' : name;
}

const SOURCE_FILE = /^[^-=<>|&;$`][^=<>|&;$`]*\.(?:[cm]?[jt]sx?|py|rb|php|go|rs)$/;

/**
 * The one source file a command line names as an argument (`npx ava --tap
 * total.test.js` names `total.test.js`), or undefined when it names none
 * or several: a runner that does not print the file it ran (ava's TAP)
 * is read with it.
 */
export function commandFile(command: string | undefined): string | undefined {
  if (!command) return undefined;
  const files = new Set(
    command
      .slice(0, 4096)
      .split(/\s+/)
      .map((word) => word.replace(/^['"]|['"]$/g, ''))
      .filter((word) => SOURCE_FILE.test(word)),
  );
  return files.size === 1 ? [...files][0] : undefined;
}
