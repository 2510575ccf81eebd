// Shared by the tests only: not exported from the package, not in the build.
import { join } from 'node:path';
import { type Cairn, openCairn } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach } from 'vitest';
import type { z } from 'zod';
import { type CairnMcpServerOptions, createCairnMcpServer } from './create-cairn-mcp-server';
import type {
  addOutput,
  getOutput,
  listOutput,
  readHeadOutput,
  searchOutput,
} from './tool-schemas';
import type {
  expandOutput,
  sessionContextOutput,
  threadHeadOutput,
  threadsOutput,
} from './working-tool-schemas';

/** Every tool's structured content as one type: each test reads the fields its tool returns. */
export type Structured = z.output<typeof addOutput> &
  z.output<typeof getOutput> &
  z.output<typeof listOutput> &
  z.output<typeof searchOutput> &
  z.output<typeof readHeadOutput> &
  z.output<typeof expandOutput> &
  z.output<typeof threadsOutput> &
  z.output<typeof threadHeadOutput> &
  z.output<typeof sessionContextOutput>;

export interface ToolCall {
  result: CallToolResult;
  isError: boolean;
  /** The text block (the same JSON as the structured content, or the SDK's message). */
  text: string;
  structured: Structured;
}

/** An SDK client connected in-process to a fresh server over `cairn`. */
export async function connectInMemory(
  cairn: Cairn,
  options?: CairnMcpServerOptions,
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createCairnMcpServer(cairn, options).connect(serverSide);
  const client = new Client({ name: 'cairn-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolCall> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return {
    result,
    isError: result.isError === true,
    text: first?.type === 'text' ? first.text : '',
    structured: result.structuredContent as Structured,
  };
}

/** A fresh initialized project per test, its engine (HOME inside it) and an MCP client connected to it. */
export interface ConnectedProject {
  project: TempProject;
  cairn: Cairn;
  client: Client;
}

/** Registers the hooks that make and close a ConnectedProject for each test of the file. */
export function connectedProjectPerTest(): ConnectedProject {
  const current = {} as ConnectedProject;
  beforeEach(async () => {
    current.project = await makeTempProject();
    const home = join(current.project.root, 'home');
    current.cairn = await openCairn(current.project.root, { env: { HOME: home }, homeDir: home });
    await current.cairn.init();
    current.client = await connectInMemory(current.cairn);
  });
  afterEach(async () => {
    await current.client.close();
    current.cairn.closeWorking();
    await current.project.cleanup();
  });
  return current;
}
