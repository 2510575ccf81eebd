import {
  CairnError,
  type CairnSettings,
  ensureMemoryWorkspace,
  formatError,
  listMemoryFiles,
  MEMORY_WORKSPACE_PATH,
  type MemoryAdapterStatus,
  type MemoryBackend,
  type MemoryReadResult,
  type MemoryWriteResult,
  memoryWorkspacePath,
  type ResolvedSettings,
  type RetrievalAdapterRegistration,
  type WorkspaceFileInfo,
} from '@cairn/core';
import { ensureCairnGitignore } from './cairn-gitignore';
import { settingsFindings } from './doctor/settings-checks';
import { closeKeptReaders } from './kept-readers';
import { createMemoryApi, type MemoryApi } from './memory-api';
import { createHistoryRecords } from './recall/history-pool';
import { createLineageAccess } from './recall/lineage-pools';
import { type OpenCairnOptions, resolveProject } from './resolve-project';
import { logLifecycleFailure } from './working/lifecycle-log';
import { createWorkingApi, type WorkingApi } from './working-api';

export type { OpenCairnOptions };

export interface InitResult {
  rootDir: string;
  /** Project-relative paths created by this call. */
  created: string[];
}

export interface CairnStatus {
  rootDir: string;
  workspace: string;
  initialized: boolean;
  backend: {
    requested: string;
    resolved: string;
    name: string;
    capabilities: MemoryBackend['capabilities'];
  };
  retrievalAdapter: {
    requested: string;
    resolved: string;
    capabilities: RetrievalAdapterRegistration['capabilities'];
    /** The adapter's own status (`ok`, its index and pools), or its fallback and why. */
    status?: MemoryAdapterStatus;
  };
  settings: ResolvedSettings;
  files: WorkspaceFileInfo[];
  warnings: string[];
}

/** The memory of one project, with its settings resolved. */
export interface Cairn extends MemoryApi, WorkingApi {
  readonly rootDir: string;
  readonly settings: CairnSettings;
  readonly resolved: ResolvedSettings;
  readonly backend: MemoryBackend;
  /** Config findings and backend/adapter fallbacks the user should see. */
  readonly warnings: string[];
  /**
   * Bootstraps `.cairn/` (idempotent). With a read-only backend it creates
   * nothing, and refuses with READ_ONLY when MEMORY.md is missing.
   */
  init(): Promise<InitResult>;
  status(): Promise<CairnStatus>;
  /** The long-term file (MEMORY.md) through the resolved backend. */
  read(): Promise<MemoryReadResult>;
  /**
   * Replaces MEMORY.md, under the lock head renders take. Refuses empty
   * content (unless `allowEmpty`) and binary content with INVALID_INPUT.
   */
  write(content: string, options?: { allowEmpty?: boolean }): Promise<MemoryWriteResult>;
}

/**
 * Opens the memory of the project at `rootDir` in one call: resolves
 * settings (throwing INVALID_CONFIG on a bad file or value), then builds
 * this project's backend and retrieval adapter from the registered
 * factories with its own options. An optional package the settings name
 * (LanceDB, Qdrant, Mem0, qmd) is imported on first use; a type nothing
 * provides falls back to the builtins with a warning.
 */
export function openCairn(rootDir: string, options: OpenCairnOptions = {}): Cairn {
  const { now, scheduleMaintenance, ...settingsOptions } = options;
  const project = resolveProject(rootDir, settingsOptions);
  const { settings, backend } = project;
  const currentWarnings = project.currentWarnings;

  project.recall.useLineage(createLineageAccess(rootDir));
  project.recall.useHistory((warn) =>
    createHistoryRecords(rootDir, settings.memory.namespace, warn),
  );
  const memory = createMemoryApi(rootDir, settings, backend, project.recall.recall, now);
  const working = createWorkingApi(
    rootDir,
    settings,
    memory,
    now ?? (() => new Date()),
    settingsOptions.env ?? process.env,
    scheduleMaintenance ?? ((root) => runInBackground(cairn, root)),
  );
  const cairn: Cairn = {
    ...memory,
    ...working,
    closeWorking() {
      // Readers the history plane kept open first: the stores' own close then folds their logs in.
      closeKeptReaders(rootDir);
      working.closeWorking();
      // The recall's own lineage connection and documents index, when it opened them.
      void project.recall.close();
    },
    rootDir,
    get settings() {
      return project.settings;
    },
    get resolved() {
      return project.resolved;
    },
    backend,
    doctor: async () => {
      await project.ready();
      return memory.doctor(settingsFindings(project.resolved));
    },
    get warnings() {
      return currentWarnings();
    },
    async init() {
      // A read-only backend creates nothing: init only checks the workspace is there.
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
    },
    async status() {
      await project.ready();
      const { backendResolution, adapterResolution } = project;
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
        warnings: currentWarnings(),
      };
    },
    read: () => backend.read(rootDir),
    write: (content, writeOptions) => memory.writer.writeLongTerm(content, writeOptions),
  };
  return cairn;
}

/** A due run in this process, after the current event; its failure is logged, never thrown. */
function runInBackground(cairn: Cairn, rootDir: string): void {
  setImmediate(() => {
    import('./maintenance/maintenance-api')
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
