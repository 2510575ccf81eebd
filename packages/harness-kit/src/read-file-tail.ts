import { promises as fsp } from 'node:fs';

/**
 * The last `maxBytes` of a file the harness writes and Cairn only reads (a
 * Codex rollout, a Claude Code transcript), whole lines only: a cut-off
 * first line is dropped rather than misread. Undefined when the file cannot
 * be read; a reader then says "cannot tell", never fails the hook.
 */
export async function readFileTail(path: string, maxBytes: number): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof fsp.open>> | undefined;
  try {
    handle = await fsp.open(path, 'r');
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    return length < size ? text.slice(text.indexOf('\n') + 1) : text;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/**
 * The JSON lines of a tail, newest first, each parsed once it passes
 * `worth` (a cheap text test); lines that do not parse are skipped.
 */
export function* jsonLinesFromEnd(
  text: string,
  worth: (line: string) => boolean = () => true,
): Generator<unknown> {
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index]!;
    if (!line.trim() || !worth(line)) continue;
    try {
      yield JSON.parse(line) as unknown;
    } catch {
      // A damaged line says nothing.
    }
  }
}
