import {
  CairnError,
  ensureMemoryWorkspace,
  formatError,
  listMemoryFiles,
  MEMORY_WORKSPACE_PATH,
  memoryWorkspacePath,
} from '@cairn/core';
import type { Cairn, CairnStatus, InitResult, MemoryApi } from './cairn-api';
import { closeMemory, memoryApi, openMemoryState } from './memory-api';
import { createHistoryRecords, createLineageAccess } from './recall';
import { type OpenCairnOptions, type ResolvedProject, resolveProject } from './resolve-project';
import { closeKeptReaders, ensureCairnGitignore } from './store';
import { logLifecycleFailure } from './working';
import { workingApi } from './working-api';

export type { Cairn, CairnStatus, InitResult } from './cairn-api';
export type { OpenCairnOptions };

/** See `Cairn.init`: a read-only backend creates nothing, and only checks the workspace is there. */
async function initProject(rootDir: string, memory: MemoryApi): Promise<InitResult> {
  if (!memory.writer.writable) {
    const files = await listMemoryFiles(rootDir);
    if (!files.some((file) => file.path === 'MEMORY.md')) {
      memory.writer.assertWritable('create the memory workspace');
    }
    return { rootDir, created: [] };
  }
  const created = (await ensureMemoryWorkspace(rootDir)).map(
    (name) => `${MEMORY_WORKSPACE_PATH}/${name}`,
  );
  if (await ensureCairnGitignore(rootDir)) created.push('.cairn/.gitignore');
  return { rootDir, created };
}

async function projectStatus(rootDir: string, project: ResolvedProject): Promise<CairnStatus> {
  const { backendResolution, adapterResolution, backend } = project;
  const files = await listMemoryFiles(rootDir);
  return {
    rootDir,
    workspace: memoryWorkspacePath(rootDir),
    initialized: files.some((file) => file.path === 'MEMORY.md'),
    backend: {
      requested: backendResolution.requested,
      resolved: backendResolution.resolved,
      name: backend.name,
      capabilities: backend.capabilities,
    },
    retrievalAdapter: {
      requested: adapterResolution.requested,
      resolved: adapterResolution.resolved,
      capabilities: adapterResolution.value.capabilities,
      ...(files.length > 0 ? { status: await project.recall.status() } : {}),
    },
    settings: project.resolved,
    files,
    warnings: project.currentWarnings(),
  };
}

/**
 * Opens the memory of the project at `rootDir`: resolves settings
 * (throwing INVALID_CONFIG on a bad file or value), imports the optional
 * package they name (LanceDB, Qdrant, Mem0, qmd), then builds this
 * project's backend and retrieval adapter from the registered factories
 * with its own options. A type nothing provides falls back to the builtins
 * with a warning. When it returns, every resolution is final.
 */
export async function openCairn(rootDir: string, options: OpenCairnOptions = {}): Promise<Cairn> {
  const { now, scheduleMaintenance, env = process.env } = options;
  const project = await resolveProject(rootDir, options);
  const { settings, backend, recall } = project;
  recall.useLineage(createLineageAccess(rootDir));
  recall.useHistory((warn) => createHistoryRecords(rootDir, settings.memory.namespace, warn));
  const memoryState = openMemoryState(rootDir, settings, backend, recall.recall, now);
  const memory = memoryApi(memoryState, () => project.resolved);
  const working = workingApi({
    rootDir,
    settings,
    memory,
    now: now ?? (() => new Date()),
    env,
    scheduleMaintenance: scheduleMaintenance ?? ((root) => runInBackground(cairn, root)),
  });
  const closeStores = () => {
    // Readers the history plane kept open first: the stores' own close then folds their logs in.
    closeKeptReaders(rootDir);
    working.closeWorking();
    // The recall's own lineage connection and documents index, when it opened them.
    return recall.close();
  };
  const cairn: Cairn = {
    ...memory,
    ...working,
    rootDir,
    settings,
    resolved: project.resolved,
    backend,
    get warnings() {
      return project.currentWarnings();
    },
    closeWorking: () => void closeStores(),
    init: () => initProject(rootDir, memory),
    status: () => projectStatus(rootDir, project),
    read: () => backend.read(rootDir),
    write: (content, writeOptions) => memory.writer.writeLongTerm(content, writeOptions),
    async close() {
      closeMemory(memoryState);
      await closeStores();
      await backend.close?.();
    },
  };
  return cairn;
}

/** A due run in this process, after the current event; its failure is logged, never thrown. */
function runInBackground(cairn: Cairn, rootDir: string): void {
  setImmediate(() => {
    import('./maintenance')
      .then(({ openMaintenance }) =>
        openMaintenance(cairn).run({ ifDue: true, trigger: 'schedule' }),
      )
      .catch((error: unknown) =>
        logLifecycleFailure(rootDir, {
          at: new Date().toISOString(),
          event: 'maintenance',
          code: CairnError.isInstance(error) ? error.code : 'INTERNAL',
          message: formatError(error),
        }),
      );
  });
}
