import type {
  MemoryQuery,
  MemoryResult,
  MemoryRetrievalAdapter,
  RetrievalAdapterCapabilities,
} from '@cairn/core';

export interface DescribeRetrievalAdapterOptions {
  name: string;
  /** The static declaration; it decides which tests run. */
  capabilities: RetrievalAdapterCapabilities;
  /** A fresh adapter for a project root (the workspace is its default hot pool). */
  create: (rootDir: string) => MemoryRetrievalAdapter | Promise<MemoryRetrievalAdapter>;
  cleanup?: (adapter: MemoryRetrievalAdapter) => void | Promise<void>;
  /**
   * For semantic adapters: a workspace document and a query that shares no
   * exact word with it but means the same (default: near-miss spellings the
   * offline hash embedder relates). Override it for an embedder that does not.
   */
  semanticProbe?: { document: string; query: string };
  /**
   * The "missing optional package" check (seed 001: an adapter must be
   * optional). Runs once per test project; the caller simulates the missing
   * package (e.g. an importer that throws) and reports what Cairn did.
   */
  fallback?: {
    /** The package whose absence is simulated, e.g. `@cairn/backend-lancedb`. */
    missingPackage: string;
    run: (rootDir: string) => Promise<RetrievalFallbackOutcome>;
  };
}

/** What Cairn did when the configured adapter's package was missing. */
export interface RetrievalFallbackOutcome {
  /** The adapter that answers recall now: must be the builtin `file`. */
  adapterId: string;
  /** Warnings shown to the user: one must name the package and how to install it. */
  warnings: readonly string[];
  /** Recall through whatever answers now, when the caller can offer it. */
  recall?: (query: MemoryQuery) => Promise<MemoryResult[]>;
}
