/**
 * How far the pack's token estimate is from the real tokenizer
 * (gpt-tokenizer, o200k_base) on the texts a pack carries, and what each
 * costs per KB. Not part of `pnpm bench` yet; run it on its own:
 *
 *   pnpm --filter @cairn/bench exec tsx src/packs/token-estimate-check.ts [locomo.json]
 *
 * Corpus: LoCoMo turns (unit-like sentences), the lived-in generator's
 * tool outputs (made-up vocabulary), this repository's Markdown and
 * TypeScript, and its own `git log -p` / `git log --stat` output.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTokenizer } from '@cairn/engine';
import { estimateTokenCount } from '@cairn/engine/internals';
import { toolCall } from '../lived-in/tool-output';
import { loadLocomo } from '../locomo/dataset';
import { createTextGenerator } from '../scale/text-generator';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const LOCOMO = process.argv[2] ?? join(dirname(REPO), 'shared/bench/locomo/locomo-dev.json');

interface Sample {
  kind: string;
  text: string;
}

const files = (dir: string, ext: string) =>
  (readdirSync(join(REPO, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(ext) && !f.includes('node_modules'))
    .map((f) => readFileSync(join(REPO, dir, f), 'utf8'));

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });

async function corpus(): Promise<Sample[]> {
  const out: Sample[] = [];
  for (const conversation of await loadLocomo(LOCOMO)) {
    for (const session of conversation.sessions) {
      for (const turn of session.turns)
        out.push({ kind: 'unit', text: `${turn.speaker}: ${turn.text}` });
    }
  }
  const text = createTextGenerator(7);
  const tools = { text, rare: () => `${text.word()}qz` };
  for (let i = 0; i < 300; i += 1)
    out.push({ kind: 'tool (generated)', text: toolCall(tools).output });
  for (const doc of [...files('docs', '.md'), readFileSync(join(REPO, 'README.md'), 'utf8')]) {
    out.push({ kind: 'markdown', text: doc });
  }
  for (const source of [
    ...files('packages/core/src', '.ts'),
    ...files('packages/mcp/src', '.ts'),
  ]) {
    out.push({ kind: 'code', text: source });
  }
  for (const commit of git('log', '-p', '-n', '40', '--no-color').split(/(?=^commit )/m)) {
    out.push({ kind: 'diff', text: commit.slice(0, 20_000) });
  }
  const stat = git('log', '--stat', '-n', '60', '--no-color');
  for (let at = 0; at < stat.length; at += 4000)
    out.push({ kind: 'command output', text: stat.slice(at, at + 4000) });
  return out;
}

const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;

/**
 * One pass over texts never seen before: gpt-tokenizer caches merges, so a
 * second pass over the same texts would flatter it. The first tenth of the
 * corpus warms the JIT up; the rest is timed.
 */
function microsPerKb(samples: Sample[], count: (text: string) => number): number {
  const warm = Math.floor(samples.length / 10);
  for (const s of samples.slice(0, warm)) count(s.text);
  const timed = samples.slice(warm);
  const kb = timed.reduce((sum, s) => sum + Buffer.byteLength(s.text), 0) / 1024;
  const start = process.hrtime.bigint();
  for (const s of timed) count(s.text);
  return Number(process.hrtime.bigint() - start) / 1000 / kb;
}

async function main() {
  const tokenizer = await loadTokenizer();
  const samples = await corpus();
  const kinds = [...new Set(samples.map((s) => s.kind))];
  console.log(
    '| kind | texts | o200k tokens | estimate | error | per text p5 / p50 / p95 | chars/4 error |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | --- | ---: |');
  for (const kind of kinds) {
    const mine = samples.filter((s) => s.kind === kind);
    let exact = 0;
    let estimate = 0;
    let quarter = 0;
    const errors: number[] = [];
    for (const { text } of mine) {
      const e = tokenizer.count(text);
      const g = estimateTokenCount(text);
      exact += e;
      estimate += g;
      quarter += Math.ceil(text.length / 4);
      if (e >= 20) errors.push(g / e - 1);
    }
    errors.sort((a, b) => a - b);
    const q = (p: number) => percent(errors[Math.floor(p * (errors.length - 1))] ?? 0);
    console.log(
      `| ${kind} | ${mine.length} | ${exact} | ${estimate} | ${percent(estimate / exact - 1)} | ${q(0.05)} / ${q(0.5)} / ${q(0.95)} | ${percent(quarter / exact - 1)} |`,
    );
  }
  // Fresh samples for the timing: the table above already went through the tokenizer's cache.
  const fresh = (await corpus())
    .filter((s) => s.kind !== 'tool (generated)')
    .map((s) => ({ ...s, text: `${s.text} ` }));
  const exact = await loadTokenizer();
  console.log(`\nestimate: ${microsPerKb(fresh, estimateTokenCount).toFixed(0)} µs/KB`);
  console.log(`o200k_base (gpt-tokenizer): ${microsPerKb(fresh, exact.count).toFixed(0)} µs/KB`);
}

await main();
