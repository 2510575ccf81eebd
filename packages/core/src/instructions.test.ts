import { describe, expect, it } from 'vitest';
import {
  buildExecutionMemoryInstructions,
  buildPlanningMemoryInstructions,
  buildReviewerMemoryInstructions,
  resolveMemoryInstructionContext,
} from './instructions';

const builders = [
  buildPlanningMemoryInstructions,
  buildExecutionMemoryInstructions,
  buildReviewerMemoryInstructions,
];

describe('memory instruction context', () => {
  it.each([
    [{ memoryEnabled: false, memoryBackendType: 'file' }, 'disabled', 'disabled', null],
    [{ memoryBackendType: 'file' }, 'file', 'file', '.cairn/memory/MEMORY.md'],
    [{}, 'file', 'file', '.cairn/memory/MEMORY.md'],
    [{ memoryBackendType: 'readonly' }, 'readonly', 'readonly', null],
    [{ memoryBackendType: 'qmd' }, 'generic', 'qmd', null],
    [{ memoryBackendType: 'something-new' }, 'generic', 'something-new', null],
  ])('%j resolves to %s', (settings, mode, backendType, hint) => {
    expect(resolveMemoryInstructionContext(settings)).toEqual({
      mode,
      backendType,
      instructionPathHint: hint,
    });
  });

  it('builds nothing when memory is disabled', () => {
    const context = resolveMemoryInstructionContext({ memoryEnabled: false });
    for (const build of builders) expect(build(context)).toBe('');
  });

  it('gives the file backend an explicit path and the others none', () => {
    const file = resolveMemoryInstructionContext({ memoryBackendType: 'file' });
    const qmd = resolveMemoryInstructionContext({ memoryBackendType: 'qmd' });
    for (const build of builders) {
      expect(build(file)).toContain('.cairn/memory/MEMORY.md');
      expect(build(qmd)).not.toContain('.cairn/memory/MEMORY.md');
      expect(build(qmd)).toContain('memory_search');
    }
    expect(buildExecutionMemoryInstructions(qmd)).toContain('memory_add');
  });

  it('tells a read-only backend not to write, for every role', () => {
    const context = resolveMemoryInstructionContext({ memoryBackendType: 'readonly' });
    for (const build of builders) {
      expect(build(context)).toMatch(/read-only/);
      expect(build(context)).not.toContain('record it with memory_add');
    }
  });

  it('varies by role for writable backends', () => {
    const file = resolveMemoryInstructionContext({ memoryBackendType: 'file' });
    expect(buildReviewerMemoryInstructions(file)).toMatch(/do not write memory yourself/);
    expect(buildPlanningMemoryInstructions(file)).toMatch(/planning/);
  });
});
