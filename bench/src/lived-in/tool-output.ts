/**
 * Tool calls as a coding agent makes them (Read, Bash, Edit, Grep, Glob),
 * with outputs that look like the real thing: numbered source lines, test
 * runner and build logs, grep hits, git diffs, stack traces. Identifiers
 * come from the project vocabulary and, now and then, from the
 * transcript-only vocabulary (words no unit ever uses), so some questions
 * can only be answered from the transcript.
 */
import type { TextGenerator } from '../scale/text-generator';

/** Output sizes in bytes: log-normal, clipped to 0.5 to 20 KB. */
export const OUTPUT_BYTES = { min: 512, max: 20_480, median: 1_800, sigma: 0.85 } as const;

export interface ToolCall {
  toolName: 'Read' | 'Bash' | 'Edit' | 'Grep' | 'Glob';
  input: Record<string, unknown>;
  output: string;
}

/** What a session's text is drawn from: the shared vocabulary, and the transcript-only one. */
export interface ToolText {
  text: TextGenerator;
  /** One word that occurs in transcripts only (Zipf-distributed, so words recur across sessions). */
  rare(): string;
}

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** A standard normal draw (Box-Muller). */
function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Target output size in bytes: log-normal around the median, clipped. */
export function outputSize(random: () => number): number {
  const { min, max, median, sigma } = OUTPUT_BYTES;
  const size = Math.round(median * Math.exp(sigma * gaussian(random)));
  return Math.min(max, Math.max(min, size));
}

const capital = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

function ident(t: ToolText, parts = 2): string {
  const words = Array.from({ length: parts }, t.text.word);
  return words[0]! + words.slice(1).map(capital).join('');
}

/**
 * A transcript-only word where a tokenizer sees it whole (a path segment, a
 * comment, a frame name), never inside a camelCase identifier.
 */
function maybeRare(t: ToolText, chance: number): string | undefined {
  return t.text.random() < chance ? t.rare() : undefined;
}

function filePath(t: ToolText): string {
  const dir = pick(t.text.random, ['src', 'src/lib', 'src/server', 'packages/core/src', 'test']);
  const rare = maybeRare(t, 0.06);
  return `${dir}/${rare ? `${rare}/` : ''}${t.text.word()}-${t.text.word()}.ts`;
}

function codeLine(t: ToolText): string {
  const r = t.text.random();
  const a = ident(t);
  if (r < 0.12)
    return `import { ${capital(ident(t))} } from './${t.text.word()}-${t.text.word()}';`;
  if (r < 0.24) return `export async function ${a}(${ident(t, 1)}: ${capital(ident(t))}) {`;
  if (r < 0.5) return `  const ${a} = await ${ident(t, 1)}.${ident(t)}(${ident(t, 1)});`;
  if (r < 0.62) return `  if (!${a}) throw new Error('${t.text.sentence().slice(0, 60)}');`;
  if (r < 0.74) return `  // ${t.text.sentence()} ${maybeRare(t, 0.3) ?? ''}`.trimEnd();
  if (r < 0.86) return `  return { ${a}, ${ident(t, 1)}: ${ident(t, 1)}.length };`;
  return '}';
}

function stackTrace(t: ToolText): string[] {
  const message = `${capital(t.text.word())}Error: ${t.text.sentence()}`;
  const frames = Array.from(
    { length: 4 + Math.floor(t.text.random() * 6) },
    () =>
      `    at ${maybeRare(t, 0.15) ?? t.text.word()}.${ident(t)} (${filePath(t)}:${1 + Math.floor(t.text.random() * 400)}:${1 + Math.floor(t.text.random() * 40)})`,
  );
  return [message, ...frames];
}

type Body = (t: ToolText) => { input: Record<string, unknown>; line: () => string[] };

const read: Body = (t) => {
  let n = 0;
  return {
    input: { file_path: `/repo/${filePath(t)}` },
    line: () => {
      n += 1;
      return [`${String(n).padStart(6)}\t${codeLine(t)}`];
    },
  };
};

const testRun: Body = (t) => ({
  input: { command: 'pnpm test', description: 'Run the test suite' },
  line: () => {
    const r = t.text.random();
    const file = filePath(t).replace(/\.ts$/, '.test.ts');
    if (r < 0.7) return [` ✓ ${file} > ${t.text.heading()} ${Math.floor(t.text.random() * 90)}ms`];
    if (r < 0.85) return [` × ${file} > ${ident(t)} fails`, ...stackTrace(t)];
    return [` Test Files  ${Math.floor(t.text.random() * 40)} passed`];
  },
});

const buildLog: Body = (t) => ({
  input: { command: 'pnpm build', description: 'Build every package' },
  line: () => {
    const pkg = `@app/${t.text.word()}`;
    const r = t.text.random();
    if (r < 0.5)
      return [`${pkg}:build: ESM dist/${ident(t)}.js ${(t.text.random() * 90).toFixed(2)} KB`];
    if (r < 0.8) return [`${pkg}:build: cache miss, executing ${maybeRare(t, 0.2) ?? ident(t)}`];
    return [`${pkg}:build: warning: ${t.text.sentence()}`];
  },
});

const gitDiff: Body = (t) => ({
  input: { command: 'git diff', description: 'Show the working tree changes' },
  line: () => {
    const r = t.text.random();
    if (r < 0.08) {
      const file = filePath(t);
      return [
        `diff --git a/${file} b/${file}`,
        `--- a/${file}`,
        `+++ b/${file}`,
        '@@ -12,7 +12,9 @@',
      ];
    }
    return [`${r < 0.45 ? '-' : r < 0.8 ? '+' : ' '}${codeLine(t)}`];
  },
});

const grep: Body = (t) => {
  const pattern = ident(t, 1);
  return {
    input: { pattern, path: 'src', output_mode: 'content', '-n': true },
    line: () => [`${filePath(t)}:${1 + Math.floor(t.text.random() * 500)}:${codeLine(t)}`],
  };
};

const edit: Body = (t) => {
  const file = `/repo/${filePath(t)}`;
  let n = Math.floor(t.text.random() * 200);
  let header = true;
  return {
    input: { file_path: file, old_string: codeLine(t), new_string: codeLine(t) },
    line: () => {
      if (header) {
        header = false;
        return [`The file ${file} has been updated. Here's the result of running \`cat -n\`:`];
      }
      n += 1;
      return [`${String(n).padStart(6)}\t${codeLine(t)}`];
    },
  };
};

const glob: Body = (t) => ({
  input: { pattern: `**/*${t.text.word()}*.ts` },
  line: () => [`/repo/${filePath(t)}`],
});

const BODIES: [ToolCall['toolName'], Body, number][] = [
  ['Read', read, 0.34],
  ['Bash', testRun, 0.12],
  ['Bash', buildLog, 0.08],
  ['Bash', gitDiff, 0.1],
  ['Edit', edit, 0.14],
  ['Grep', grep, 0.15],
  ['Glob', glob, 0.07],
];

/** One tool call whose output is `outputSize` bytes (cut at a line end when one is near). */
export function toolCall(t: ToolText): ToolCall {
  let r = t.text.random();
  let chosen = BODIES[0]!;
  for (const body of BODIES) {
    chosen = body;
    r -= body[2];
    if (r < 0) break;
  }
  const [toolName, body] = chosen;
  const size = outputSize(t.text.random);
  const { input, line } = body(t);
  const lines: string[] = [];
  let length = 0;
  while (length < size) {
    for (const next of line()) {
      lines.push(next);
      length += Buffer.byteLength(next) + 1;
    }
  }
  const output = Buffer.from(lines.join('\n')).subarray(0, size).toString('utf8');
  // A cut through a multi-byte character leaves U+FFFD: drop it.
  return { toolName, input, output: output.replace(/\uFFFD+$/, '') };
}
