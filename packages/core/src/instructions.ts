import { MEMORY_LONG_TERM_FILENAME, MEMORY_WORKSPACE_PATH } from './workspace/paths';

/**
 * How prompts talk about memory depends on the backend (seed 000 §3.7,
 * §3.8.4): the file backend gets an explicit path hint, readonly gets a
 * read-only instruction set, and any other backend (qmd or one Cairn does
 * not know) gets generic tool-based instructions with no path.
 */
export type MemoryInstructionMode = 'disabled' | 'file' | 'readonly' | 'generic';

export interface MemoryInstructionContext {
  mode: MemoryInstructionMode;
  /** The configured backend type, or `disabled`. */
  backendType: string;
  /** Project-relative path of the long-term file, only for the file backend. */
  instructionPathHint: string | null;
}

export const MEMORY_INSTRUCTION_PATH_HINT = `${MEMORY_WORKSPACE_PATH}/${MEMORY_LONG_TERM_FILENAME}`;

export function resolveMemoryInstructionContext(
  settings: { memoryEnabled?: boolean; memoryBackendType?: string } = {},
): MemoryInstructionContext {
  if (settings.memoryEnabled === false) {
    return { mode: 'disabled', backendType: 'disabled', instructionPathHint: null };
  }
  const type = settings.memoryBackendType ?? 'file';
  if (type === 'file') {
    return { mode: 'file', backendType: 'file', instructionPathHint: MEMORY_INSTRUCTION_PATH_HINT };
  }
  if (type === 'readonly') {
    return { mode: 'readonly', backendType: 'readonly', instructionPathHint: null };
  }
  return { mode: 'generic', backendType: type, instructionPathHint: null };
}

type Role = 'planning' | 'execution' | 'reviewer';

const readLine: Record<MemoryInstructionMode, string> = {
  disabled: '',
  file: `Project memory lives in ${MEMORY_INSTRUCTION_PATH_HINT} (plus daily files beside it). Read it before you start.`,
  readonly:
    'Project memory is available read-only: search it with memory_search and read the head with memory_read_head.',
  generic:
    'Project memory is managed by the configured memory backend: search it with memory_search and read the head with memory_read_head.',
};

const writeLine: Record<MemoryInstructionMode, Record<Role, string>> = {
  disabled: { planning: '', execution: '', reviewer: '' },
  file: {
    planning: `Record durable decisions from planning with memory_add, or by editing ${MEMORY_INSTRUCTION_PATH_HINT} outside the managed head region.`,
    execution: `When you learn something durable (a decision, a convention, a fix), record it with memory_add; edit ${MEMORY_INSTRUCTION_PATH_HINT} only outside the managed head region.`,
    reviewer:
      'Check that durable decisions made in this change were recorded in project memory; do not write memory yourself.',
  },
  readonly: {
    planning: 'Do not try to write memory: this backend is read-only.',
    execution: 'Do not try to write memory: this backend is read-only.',
    reviewer: 'Do not try to write memory: this backend is read-only.',
  },
  generic: {
    planning: 'Record durable decisions from planning with memory_add.',
    execution:
      'When you learn something durable (a decision, a convention, a fix), record it with memory_add.',
    reviewer:
      'Check that durable decisions made in this change were recorded in project memory; do not write memory yourself.',
  },
};

function build(context: MemoryInstructionContext, role: Role): string {
  if (context.mode === 'disabled') return '';
  return ['## Project memory', '', readLine[context.mode], writeLine[context.mode][role], ''].join(
    '\n',
  );
}

/** Instructions for a planning prompt; empty when memory is disabled. */
export function buildPlanningMemoryInstructions(context: MemoryInstructionContext): string {
  return build(context, 'planning');
}

/** Instructions for an executor prompt; empty when memory is disabled. */
export function buildExecutionMemoryInstructions(context: MemoryInstructionContext): string {
  return build(context, 'execution');
}

/** Instructions for a reviewer prompt; empty when memory is disabled. */
export function buildReviewerMemoryInstructions(context: MemoryInstructionContext): string {
  return build(context, 'reviewer');
}
