/**
 * Child process for the file-lock race test. Each stdin line is
 * `<lock> <log> <tag>`: the child appends `tag` to `log` (read, yield,
 * write: a lost update shows up as a missing tag) under the lock, then
 * prints `ok <tag>`, or `err <tag> <message>`.
 * Run with `node --import tsx file-lock.fixture.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { withFileLock } from './file-lock';

for await (const line of createInterface({ input: process.stdin })) {
  const [lock, log, tag] = line.split(' ') as [string, string, string];
  try {
    await withFileLock(lock, async () => {
      const before = await readFile(log, 'utf8').catch(() => '');
      await new Promise((resolve) => setImmediate(resolve));
      await writeFile(log, `${before}${tag}\n`);
    });
    process.stdout.write(`ok ${tag}\n`);
  } catch (error) {
    process.stdout.write(`err ${tag} ${(error as Error).message.replace(/\n/g, ' ')}\n`);
  }
}
