import { assertProjectLayout, type Cairn } from '@cairn/engine';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { MemoryTool } from './define-tool';
import { MEMORY_TOOLS } from './memory-tools';
import { toolErrorResult, toolResult } from './tool-results';
import { VERSION } from './version';

export interface CairnMcpServerOptions {
  /** The server name reported at initialize. Default `cairn`. */
  name?: string;
  /** Instructions reported at initialize; the default says when to use which tool. */
  instructions?: string;
  /**
   * Called with every error a tool threw before it became an `isError`
   * result; the CLI logs the ones that are not CairnErrors on stderr.
   */
  onToolError?: (error: unknown, tool: string) => void;
}

const DEFAULT_INSTRUCTIONS = [
  "Cairn is this project's durable memory: markdown files under .cairn/memory/.",
  'Before work, memory_search for what earlier sessions learned; memory_get reads a hit in full.',
  'When the user states a lasting preference, fact or decision, store it with memory_add as one',
  'complete statement. Fix or drop a unit by id with memory_replace or memory_remove.',
  'memory_threads and memory_thread_head show where earlier sessions of a thread left off;',
  'memory_expand drills into a node of their lineage, down to the transcript.',
].join(' ');

async function runTool(
  cairn: Cairn,
  tool: MemoryTool,
  args: unknown,
  onToolError: CairnMcpServerOptions['onToolError'],
): Promise<CallToolResult> {
  try {
    // A link under .cairn/ (a cloned repository can ship one) fails every tool with INVALID_PATH.
    assertProjectLayout(cairn.rootDir);
    const { structured, isError } = await tool.run(cairn, args);
    // Parsing projects the result onto the declared fields (see tool-schemas.ts).
    return toolResult({ structured: tool.outputSchema.parse(structured), isError });
  } catch (error) {
    onToolError?.(error, tool.name);
    return toolErrorResult(error);
  }
}

/**
 * An MCP server exposing the memory of one project as the `memory_*` tools.
 * Connect it to a transport (stdio, streamable HTTP, in-memory); tool
 * failures come back as `isError` results and never stop the server.
 */
export function createCairnMcpServer(cairn: Cairn, options: CairnMcpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: options.name ?? 'cairn', version: VERSION },
    { instructions: options.instructions ?? DEFAULT_INSTRUCTIONS },
  );
  for (const tool of MEMORY_TOOLS) {
    const { name, title, description, inputSchema, outputSchema, annotations } = tool;
    server.registerTool(
      name,
      { title, description, inputSchema, outputSchema, annotations },
      (args) => runTool(cairn, tool, args, options.onToolError),
    );
  }
  return server;
}
