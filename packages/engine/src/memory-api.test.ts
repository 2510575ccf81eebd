import { statfsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveSettings } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeMemory, type MemoryState, openMemoryState } from './memory-api';
import { openCairn } from './open-cairn';
import { resolveProject } from './resolve-project';

// The watch starts only where inotify sees every write (Linux, a local filesystem).
const watched =
  process.platform === 'linux' &&
  [0xef53, 0x01021994, 0x794c7630, 0x58465342, 0x9123683e].includes(
    statfsSync(process.env.TMPDIR ?? '/tmp').type,
  );

let project: TempProject;
let state: MemoryState | undefined;
beforeEach(async () => {
  project = await makeTempProject('cairn-memory-api-');
  const cairn = await openCairn(project.root, { env: {} });
  await cairn.init();
  await cairn.close();
});
afterEach(async () => {
  if (state) closeMemory(state);
  state = undefined;
  await project.cleanup();
});

describe.skipIf(!watched)(
  'the memory part of a project (needs inotify on a local filesystem)',
  () => {
    it('stops its workspace watches when closed', async () => {
      const { backend, recall } = await resolveProject(project.root, { env: {} });
      const { settings } = resolveSettings({ projectRoot: project.root, env: {} });
      state = openMemoryState(project.root, settings, backend, recall.recall);
      // The first two calls list every file (the second starts the watch); the third answers from it.
      expect(await state.indexWatch.changes()).toBeUndefined();
      expect(await state.indexWatch.changes()).toBeUndefined();
      await writeFile(join(project.root, '.cairn', 'memory', 'notes.md'), 'a note\n');
      expect(await state.indexWatch.changes()).toEqual(new Set(['notes.md']));
      closeMemory(state);
      // Closed: no watch answers any more, every call lists every file again.
      await writeFile(join(project.root, '.cairn', 'memory', 'notes.md'), 'another note\n');
      expect(await state.indexWatch.changes()).toBeUndefined();
      expect(await state.indexWatch.changes()).toBeUndefined();
      await recall.close();
      state = undefined;
    });
  },
);
