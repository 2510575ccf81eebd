import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { makeTempProject, type TempProject } from './tree-snapshot';
import { fixtureUnit, writeWorkspaceFile } from './workspace-fixtures';

/** What a test opens and must close: a backend, an adapter, an index. */
export interface Closable {
  close(): Promise<void> | void;
}

export interface ProjectPerTest {
  /** The current test's project root (only inside a test or its hooks). */
  readonly root: string;
  /** Closes `opened` after the current test, before its project is removed; returns it. */
  closeAfter<T extends Closable>(opened: T): T;
}

/**
 * A fresh temp project for every test of the enclosing `describe` (or of
 * the file, called at the top level), seeded by `seed`. After each test,
 * what it opened through `closeAfter` is closed, then the folder removed.
 */
export function tempProjectPerTest(seed?: (root: string) => Promise<void>): ProjectPerTest {
  let project: TempProject | undefined;
  const opened: Closable[] = [];
  beforeEach(async () => {
    project = await makeTempProject();
    await seed?.(project.root);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((instance) => instance.close()));
    await project?.cleanup();
    project = undefined;
  });
  return {
    get root() {
      if (!project) throw new Error('the temp project exists only while a test runs');
      return project.root;
    },
    closeAfter(instance) {
      opened.push(instance);
      return instance;
    },
  };
}

export interface TwoCheckouts extends ProjectPerTest {
  /** `<root>/one/app`: its workspace holds unit 1, "The wombat scheduler runs hourly." */
  readonly appA: string;
  /** `<root>/two/app`: its workspace holds unit 2, "The wombat scheduler of project two runs daily." */
  readonly appB: string;
}

/**
 * Two checkouts whose folders share a name (`one/app`, `two/app`) in a
 * fresh temp folder for every test, each with one unit about the wombat
 * scheduler: a store both share must keep each one's entries apart.
 */
export function twoCheckoutsPerTest(): TwoCheckouts {
  const project = tempProjectPerTest(async (root) => {
    const unitA = fixtureUnit(1, 'The wombat scheduler runs hourly.');
    const unitB = fixtureUnit(2, 'The wombat scheduler of project two runs daily.');
    await writeWorkspaceFile(join(root, 'one', 'app'), '2026-03-01.md', unitA);
    await writeWorkspaceFile(join(root, 'two', 'app'), '2026-03-01.md', unitB);
  });
  return {
    get root() {
      return project.root;
    },
    get appA() {
      return join(project.root, 'one', 'app');
    },
    get appB() {
      return join(project.root, 'two', 'app');
    },
    closeAfter: (instance) => project.closeAfter(instance),
  };
}
