import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { type SharedFixesSync, syncSharedFixes } from '../history';
import type { WorkspaceWriter } from '../store';
import { HeadStore } from './head-store';
import { LOCAL_HEAD } from './head-writer';

/**
 * What a clone of a shared repository has of its own (docs/TEAMS.md): its
 * head, kept in heads.db, and the fix patterns it shares with the others
 * and imports from them.
 */
export function createTeamApi(rootDir: string, writer: WorkspaceWriter, now: () => Date) {
  const withHeads = <T>(read: (store: HeadStore) => T): T => {
    const store = new HeadStore(rootDir);
    try {
      return read(store);
    } finally {
      store.close();
    }
  };
  return {
    /**
     * This clone's personal head (its threads, next actions, constraints and
     * lineage), as the last session end rendered it; undefined before one.
     * MEMORY.md's region holds the team head only.
     */
    localHead(): string | undefined {
      // Reading must not create heads.db in a project that has none yet.
      if (!existsSync(join(cairnStatePath(rootDir), 'heads.db'))) return undefined;
      return withHeads((store) => store.leases.lastRendered(LOCAL_HEAD.agentId, LOCAL_HEAD.scope));
    },
    /**
     * Imports the fix patterns the other clones share in
     * `.cairn/memory/fixes/`, and with `write` writes this clone's own.
     * Creates nothing in a project with no task history and no shared file.
     */
    syncSharedFixes(options: { write?: boolean } = {}): Promise<SharedFixesSync> {
      return syncSharedFixes(rootDir, writer, () => withHeads((store) => store.authorId()), {
        now: now(),
        write: options.write ?? true,
      });
    },
  };
}
