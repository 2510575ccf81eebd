import type { Cairn } from '@cairn/engine';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { MemoryToolName } from './tool-names';
import type { ToolOutcome } from './tool-results';

/** One tool: its MCP description and the engine call behind it. */
export interface MemoryTool {
  name: MemoryToolName;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: ToolAnnotations;
  /** `args` has already been parsed by `inputSchema` (the SDK does it). */
  run(cairn: Cairn, args: unknown): Promise<ToolOutcome>;
}

export function defineTool<S extends z.ZodObject>(
  tool: Omit<MemoryTool, 'inputSchema' | 'run'> & {
    inputSchema: S;
    run(cairn: Cairn, args: z.output<S>): Promise<ToolOutcome>;
  },
): MemoryTool {
  return { ...tool, run: (cairn, args) => tool.run(cairn, args as z.output<S>) };
}

/** Every tool works on the local project only: nothing reaches outside it. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
