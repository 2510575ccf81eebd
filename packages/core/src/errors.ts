/**
 * One error base for every Cairn package. Checks go through the static
 * `isInstance` helpers rather than `instanceof`, because a project can end up
 * with two copies of `@cairn/core` (a harness plugin and the CLI, say) and
 * `instanceof` fails across copies. The marker is a global symbol, so it does not.
 */

const cairnErrorMarker = Symbol.for('cairn.error');
const memoryBackendErrorMarker = Symbol.for('cairn.error.memory-backend');

/** The eight codes of the memory backend contract (seed 000 §3.2). */
export const MEMORY_BACKEND_ERROR_CODES = [
  'NOT_FOUND',
  'READ_ONLY',
  'READ_FAILED',
  'WRITE_FAILED',
  'UNSUPPORTED',
  'CONFLICT',
  'QUOTA_EXCEEDED',
  'BACKEND_UNAVAILABLE',
] as const;

export type MemoryBackendErrorCode = (typeof MEMORY_BACKEND_ERROR_CODES)[number];

/**
 * Every code a CairnError can carry. Backend codes are shared with
 * MemoryBackendError; the rest describe bad input and configuration:
 * INVALID_CONFIG (a config file or value failed validation), INVALID_PATH
 * (a workspace path was rejected), INVALID_INPUT (an argument failed
 * validation) and INTERNAL (a bug: something that should not happen did).
 * docs/CLI.md lists each with its exit code; a test keeps them in step.
 */
export const CAIRN_ERROR_CODES = [
  ...MEMORY_BACKEND_ERROR_CODES,
  'INVALID_CONFIG',
  'INVALID_PATH',
  'INVALID_INPUT',
  'INTERNAL',
] as const;

export type CairnErrorCode = (typeof CAIRN_ERROR_CODES)[number];

export interface CairnErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
  /** What the user should do next; appended to the message. */
  hint?: string;
  /** Structured fields (file, key, path, reason, ...) for tools and JSON output. */
  details?: Record<string, unknown>;
}

export class CairnError extends Error {
  readonly [cairnErrorMarker] = true;
  readonly code: CairnErrorCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: CairnErrorCode, summary: string, options: CairnErrorOptions = {}) {
    super(options.hint ? `${summary} — ${options.hint}` : summary, { cause: options.cause });
    this.name = 'CairnError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details ?? {};
  }

  static isInstance(value: unknown): value is CairnError {
    return typeof value === 'object' && value !== null && cairnErrorMarker in value;
  }

  /** A plain object for `--json` output and MCP tool errors. */
  toJSON(): {
    code: CairnErrorCode;
    message: string;
    hint?: string;
    details: Record<string, unknown>;
  } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint ? { hint: this.hint } : {}),
      details: this.details,
    };
  }
}

const defaultBackendHints: Record<MemoryBackendErrorCode, string> = {
  NOT_FOUND: 'check the path or id, or run `cairn init` to create the workspace',
  READ_ONLY:
    'this backend refuses writes; set memoryBackendType to a writable backend such as "file"',
  READ_FAILED: 'check that the file exists and is readable by this user',
  WRITE_FAILED: 'check free disk space and write permission on .cairn/memory/',
  UNSUPPORTED: 'this backend does not declare the capability; use a backend that does',
  CONFLICT: 'another writer changed the file; re-read it and try again',
  QUOTA_EXCEEDED: 'shorten the content or raise the configured limit',
  BACKEND_UNAVAILABLE: 'check that the backend is installed and configured, or switch to "file"',
};

export interface MemoryBackendErrorOptions extends CairnErrorOptions {}

/** The typed error of the MemoryBackend contract (seed 000 §3.2). */
export class MemoryBackendError extends CairnError {
  readonly [memoryBackendErrorMarker] = true;
  declare readonly code: MemoryBackendErrorCode;
  /** The `type` of the backend that raised it. */
  readonly backend: string;

  constructor(
    code: MemoryBackendErrorCode,
    backend: string,
    summary: string,
    options: MemoryBackendErrorOptions = {},
  ) {
    super(code, summary, {
      ...options,
      hint: options.hint ?? defaultBackendHints[code],
      details: { ...options.details, backend },
    });
    this.name = 'MemoryBackendError';
    this.backend = backend;
  }

  static override isInstance(value: unknown): value is MemoryBackendError {
    return typeof value === 'object' && value !== null && memoryBackendErrorMarker in value;
  }
}

/** Invalid configuration: names the file (or env variable), the key and the reason. */
export function configError(params: {
  source: string;
  key: string;
  reason: string;
  cause?: unknown;
}): CairnError {
  return new CairnError(
    'INVALID_CONFIG',
    `Invalid setting "${params.key}" in ${params.source}: ${params.reason}`,
    {
      cause: params.cause,
      hint: `fix or remove "${params.key}" in ${params.source}; see docs/CONFIG.md`,
      details: { source: params.source, key: params.key, reason: params.reason },
    },
  );
}

/** What to do when an error carries no hint of its own: every error line says what to do. */
export const DEFAULT_ERROR_HINTS: Record<CairnErrorCode, string> = {
  ...defaultBackendHints,
  INVALID_CONFIG: 'fix the setting named above; see docs/CONFIG.md',
  INVALID_PATH: 'use a relative path inside .cairn/memory/ ending in .md',
  INVALID_INPUT: 'check the arguments; `cairn <command> --help` shows the usage',
  INTERNAL: 'this is a bug in Cairn: please report it with the command that failed',
};

/** Formats any thrown value as one line: `CODE: message` (a CairnError's message ends with its hint). */
export function formatError(error: unknown): string {
  if (CairnError.isInstance(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `INTERNAL: ${error.message}`;
  return `INTERNAL: ${String(error)}`;
}

/**
 * The error line a user reads (docs/CLI.md): `CODE: what went wrong — what
 * to do`. An error without a hint of its own gets its code's default hint.
 */
export function formatErrorLine(error: unknown): string {
  if (CairnError.isInstance(error)) {
    if (error.hint) return formatError(error);
    const hint = DEFAULT_ERROR_HINTS[error.code] ?? DEFAULT_ERROR_HINTS.INTERNAL;
    return `${error.code}: ${error.message} — ${hint}`;
  }
  return `${formatError(error)} — ${DEFAULT_ERROR_HINTS.INTERNAL}`;
}
