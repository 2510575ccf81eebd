import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { BackendFixture } from './backend-fixture';
import {
  type BackendProcessFactory,
  bigContent,
  startWriter,
  writeContentFiles,
} from './child-writers';

async function withContentFiles<T>(
  contents: string[],
  run: (files: string[]) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-writer-content-'));
  try {
    return await run(await writeContentFiles(dir, contents));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Tests that need the backend in other processes: real concurrency and a kill mid-write. */
export function describeProcessWriters(
  fixture: BackendFixture,
  factory: BackendProcessFactory,
): void {
  it('two writer processes at once leave one complete version', { timeout: 60_000 }, async () => {
    const { root } = fixture.project();
    const a = bigContent('process-a', 2 * 1024 * 1024);
    const b = bigContent('process-b', 2 * 1024 * 1024);
    await withContentFiles([a, b], async ([fileA, fileB]) => {
      const writers = [
        startWriter(factory, root, [fileA!], 5),
        startWriter(factory, root, [fileB!], 5),
      ];
      const exits = await Promise.all(writers.map((w) => w.exited));
      expect(exits, writers.map((w) => w.stderr()).join('\n')).toEqual([0, 0]);
    });
    const content = (await fixture.backend().read(root)).content;
    expect(content === a || content === b).toBe(true);
  });

  if (!fixture.capabilities.supportsAtomicWrite) return;

  it('a writer killed mid-write leaves the old or the new file, never a partial one', {
    timeout: 120_000,
  }, async () => {
    const backend = fixture.backend();
    const { root } = fixture.project();
    const old = bigContent('old', 1024 * 1024);
    const a = bigContent('new-a', 6 * 1024 * 1024);
    const b = bigContent('new-b', 7 * 1024 * 1024);
    await backend.write(root, old);
    await withContentFiles([a, b], async (files) => {
      for (const delayMs of [0, 15, 40, 90, 160]) {
        const writer = startWriter(factory, root, files, 10_000);
        await writer.ready;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        writer.child.kill('SIGKILL');
        expect(await writer.exited).toBe('SIGKILL');
        const content = (await backend.read(root)).content;
        expect([old, a, b].includes(content), `torn file after kill at ${delayMs} ms`).toBe(true);
      }
    });
  });
}
