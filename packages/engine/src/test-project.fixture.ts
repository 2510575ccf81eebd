/** A temp project opened with a pinned clock, for the engine's tests. */
import { join } from 'node:path';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { type Cairn, openCairn } from './index';

/**
 * Makes a temp project and opens it in UTC with no env, an empty home and a
 * clock that starts at 2026-05-01T09:00Z and moves one second per reading.
 */
export async function openTestProject(): Promise<{ project: TempProject; cairn: Cairn }> {
  const project = await makeTempProject();
  let clock = Date.parse('2026-05-01T09:00:00.000Z');
  const cairn = await openCairn(project.root, {
    env: {},
    homeDir: join(project.root, 'home'),
    overrides: { timezone: 'UTC' },
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  await cairn.init();
  return { project, cairn };
}

/** Closes the working-memory stores and removes the project. */
export async function closeTestProject(project: TempProject, cairn: Cairn): Promise<void> {
  cairn.closeWorking();
  await project.cleanup();
}
