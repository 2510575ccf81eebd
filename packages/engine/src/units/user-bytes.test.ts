import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { closeTestProject, openTestProject } from '../test-project.fixture';

/** Bytes that are not UTF-8: a UTF-16 BOM pair, Latin-1 "café", a lone continuation byte. */
const USER_BYTES = Buffer.concat([
  Buffer.from('My notes \xff\xfe here\n', 'latin1'),
  Buffer.from('caf\xe9 au lait\n', 'latin1'),
  Buffer.from([0x61, 0x80, 0x62, 0x0a]),
]);

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const file = (name: string) => join(memoryWorkspacePath(project.root), name);
const idOf = (result: unknown) => (result as { memoryId: string }).memoryId;

/** True when `whole` holds `part` byte for byte. */
const holds = (whole: Buffer, part: Buffer) => whole.indexOf(part) !== -1;

async function endSession(n: number): Promise<void> {
  const ids = {
    agentId: 'claude',
    sessionKey: `s${n}`,
    harness: 'claude-code',
    cwd: project.root,
    threadKey: 'topic-bytes',
  };
  await cairn.lifecycle.sessionStart(ids);
  await cairn.lifecycle.userPromptSubmit({ ...ids, prompt: `We decided on plan number ${n}.` });
  await cairn.lifecycle.sessionEnd({ ...ids, reason: 'exit' });
}

describe('bytes the user owns stay byte for byte', () => {
  it('keeps non-UTF-8 notes of MEMORY.md through three session ends', async () => {
    const scaffold = await readFile(file('MEMORY.md'));
    const before = Buffer.concat([Buffer.from('\n'), USER_BYTES, Buffer.from('tail line\n')]);
    await writeFile(file('MEMORY.md'), Buffer.concat([scaffold, before]));
    // Each session end has a new approved decision to write into the team head.
    for (let n = 1; n <= 3; n += 1) {
      await cairn.add({ text: `Plan number ${n} is the plan.`, category: 'decision' });
      await endSession(n);
    }
    const after = await readFile(file('MEMORY.md'));
    expect(after.toString('utf8')).toContain('Plan number 3 is the plan.');
    expect(holds(after, before)).toBe(true);
    // Everything before the managed region too.
    expect(holds(after, scaffold.subarray(0, scaffold.indexOf('<!-- cairn:head:start')))).toBe(
      true,
    );
  });

  it('keeps non-UTF-8 text of a thread head around its managed region', async () => {
    await endSession(1);
    const heads = await readdir(file('threads'));
    expect(heads).toHaveLength(1);
    const name = file(`threads/${heads[0]}`);
    const current = await readFile(name);
    await writeFile(name, Buffer.concat([USER_BYTES, current, USER_BYTES]));
    await endSession(2);
    const after = await readFile(name);
    expect(after.subarray(0, USER_BYTES.length).equals(USER_BYTES)).toBe(true);
    expect(after.subarray(after.length - USER_BYTES.length).equals(USER_BYTES)).toBe(true);
  });

  it('keeps RAW lines next to a unit that is replaced, then removed, and through an add', async () => {
    const id = idOf(await cairn.add({ text: 'We deploy with Helm charts.' }));
    const daily = file('2026-05-01.md');
    const original = await readFile(daily);
    await writeFile(daily, Buffer.concat([USER_BYTES, original, USER_BYTES]));
    expect(await cairn.replace(id, 'We deploy with Argo CD.')).toMatchObject({
      action: 'replaced',
    });
    let after = await readFile(daily);
    expect(after.toString('utf8')).toContain('We deploy with Argo CD.');
    expect(after.subarray(0, USER_BYTES.length).equals(USER_BYTES)).toBe(true);
    expect(after.subarray(after.length - USER_BYTES.length).equals(USER_BYTES)).toBe(true);

    await cairn.add({ text: 'A second unit appended to the same day.' });
    after = await readFile(daily);
    expect(after.subarray(0, USER_BYTES.length).equals(USER_BYTES)).toBe(true);
    expect(holds(after, USER_BYTES.subarray(0, -1))).toBe(true);

    expect(await cairn.remove(id)).toMatchObject({ action: 'removed' });
    after = await readFile(daily);
    expect(after.toString('utf8')).not.toContain('Argo CD');
    expect(after.subarray(0, USER_BYTES.length).equals(USER_BYTES)).toBe(true);
    expect(holds(after, USER_BYTES)).toBe(true);
    expect(after.toString('latin1').match(/caf\xe9/g)).toHaveLength(2);
  });

  it('keeps a BOM and CRLF line ends when a unit is replaced', async () => {
    const id = idOf(await cairn.add({ text: 'Windows notes live here.' }));
    const daily = file('2026-05-01.md');
    const crlf = (await readFile(daily, 'utf8')).replace(/\n/g, '\r\n');
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await writeFile(daily, Buffer.concat([bom, Buffer.from(`${crlf}User line\r\n`)]));
    expect(await cairn.replace(id, 'Windows notes moved.')).toMatchObject({ action: 'replaced' });
    const after = await readFile(daily);
    expect(after.subarray(0, 3).equals(bom)).toBe(true);
    const text = after.toString('utf8');
    expect(text).toContain('Windows notes moved.\r\n');
    // Every line still ends with CRLF: no bare LF was introduced.
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect((await cairn.get(id)) as { text: string }).toMatchObject({
      text: 'Windows notes moved.',
    });
  });
});
