import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Which source files ran, from V8's coverage of the bundles (NODE_V8_COVERAGE)
 * and their source maps: a byte of a bundle ran when the innermost function
 * or block range around it has a count above zero, and a source file ran when
 * a mapping of it points at such a byte.
 */

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

interface ScriptCoverage {
  url: string;
  functions: { ranges: CoverageRange[] }[];
}

interface SourceMapJson {
  sources: string[];
  mappings: string;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Each mapping's generated line and column and its source index (the VLQ fields 1-2 of v3). */
function* decodeMappings(mappings: string): Generator<[number, number, number]> {
  let line = 0;
  let column = 0;
  let source = 0;
  for (const group of mappings.split(';')) {
    column = 0;
    for (const segment of group.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0] ?? 0;
      if (fields.length >= 4) {
        source += fields[1] ?? 0;
        yield [line, column, source];
      }
    }
    line += 1;
  }
}

/**
 * 1 where the innermost range around an offset ran, 0 where it did not;
 * outer ranges first. With `calledOnly`, the bundle's own top level (its
 * module set-up: the ranges that span the whole script) counts as not run,
 * so only code inside functions that were called counts.
 */
function ranMap(code: string, functions: ScriptCoverage['functions'], calledOnly: boolean) {
  const ran = new Uint8Array(code.length);
  const top = Math.max(...functions.map((fn) => fn.ranges[0]?.endOffset ?? 0));
  // A bundle run through vm.Script (the compile cache) was wrapped as a CommonJS module.
  const [head = '', tail = ''] = (Module as unknown as { wrapper: string[] }).wrapper;
  const shift = top === code.length + head.length + tail.length ? head.length : 0;
  const whole = (range: CoverageRange) =>
    range.startOffset <= shift + 1 && range.endOffset >= shift + code.length;
  const ranges = functions.flatMap((fn) =>
    calledOnly && fn.ranges[0] && whole(fn.ranges[0])
      ? fn.ranges.map((range) => ({ ...range, count: 0 }))
      : fn.ranges,
  );
  ranges.sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const range of ranges) {
    const start = Math.max(0, range.startOffset - shift);
    const end = Math.min(code.length, range.endOffset - shift);
    if (end > start) ran.fill(range.count > 0 ? 1 : 0, start, end);
  }
  return ran;
}

/** The source files (absolute paths) whose mapped code ran in `bundle`. */
function ranSources(bundle: string, coverage: ScriptCoverage, calledOnly: boolean): Set<string> {
  const code = readFileSync(bundle, 'utf8');
  const map = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as SourceMapJson;
  const ran = ranMap(code, coverage.functions, calledOnly);
  const lineStarts = [0];
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) {
    lineStarts.push(at + 1);
  }
  const sources = new Set<string>();
  for (const [line, column, source] of decodeMappings(map.mappings)) {
    const offset = (lineStarts[line] ?? code.length) + column;
    const path = map.sources[source];
    if (path && ran[offset] === 1) sources.add(resolve(dirname(bundle), path));
  }
  return sources;
}

const pathOf = (url: string) => (url.startsWith('file:') ? fileURLToPath(url) : url);

/**
 * The source files that ran in the bundles of `bundleDir`, from the
 * coverage files a process wrote to `coverageDir`: those with a function
 * that was called (`calledOnly`), or with any code that ran, module
 * set-up included.
 */
export function coveredSources(
  coverageDir: string,
  bundleDir: string,
  calledOnly: boolean,
): Set<string> {
  const sources = new Set<string>();
  for (const name of readdirSync(coverageDir).filter((file) => file.endsWith('.json'))) {
    const { result } = JSON.parse(readFileSync(join(coverageDir, name), 'utf8')) as {
      result: ScriptCoverage[];
    };
    for (const script of result) {
      const path = pathOf(script.url);
      if (dirname(path) !== bundleDir || !existsSync(`${path}.map`)) continue;
      for (const source of ranSources(path, script, calledOnly)) sources.add(source);
    }
  }
  return sources;
}

/** The package a source file belongs to: `@cairn/<name>` for the workspace's, the npm name otherwise. */
export function packageOf(root: string, file: string): { name: string; cairn: boolean } {
  const modules = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules !== -1) {
    const parts = file.slice(modules + 14).split(sep);
    const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
    return { name, cairn: false };
  }
  const [group, folder] = file.slice(root.length + 1).split(sep);
  const prefix = group === 'backends' ? 'backend-' : group === 'harnesses' ? 'harness-' : '';
  return { name: `@cairn/${prefix}${folder}`, cairn: true };
}
