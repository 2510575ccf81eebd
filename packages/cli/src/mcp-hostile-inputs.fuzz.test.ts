import { join } from 'node:path';
import { CAIRN_ERROR_CODES } from '@cairn/core';
import { openCairn, UNIT_ERROR_CODES } from '@cairn/engine';
import { type McpServerHandle, MEMORY_TOOL_NAMES, serveStdio } from '@cairn/mcp';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectHealthyWorkspace,
  FUZZ_RUNS,
  makeLinkTargets,
  memorySnapshot,
  OUTSIDE_MARKER,
  runInProcess,
  withLink,
} from './fuzz-harness';
import {
  cairnMarker,
  controlText,
  deepJson,
  hostileString,
  linkSpot,
  linkTarget,
  longText,
  pathLike,
} from './hostile-values';
import { LineClient, type Response } from './mcp-line-client';

/**
 * Generated hostile tool calls through the MCP server over its stdio line
 * protocol, in process. Properties: every request is answered; the answer
 * is a result, a tool error with a Cairn code (never INTERNAL), or a
 * JSON-RPC error other than "internal error"; a refusal changes no memory
 * file; reads change none; the server keeps answering after garbage.
 */

const READ_TOOLS = new Set([
  'memory_get',
  'memory_list',
  'memory_search',
  'memory_read_head',
  'memory_expand',
  'memory_threads',
  'memory_thread_head',
]);
const UNIT_CODES = new Set<string>(UNIT_ERROR_CODES);
const CAIRN_CODES = new Set<string>(CAIRN_ERROR_CODES);
/** JSON-RPC errors a hostile request may get: parse, invalid request, no method, bad params. */
const JSON_RPC_CODES = new Set([-32700, -32600, -32601, -32602]);

let project: TempProject;
let client: LineClient;
let server: McpServerHandle;
beforeEach(async () => {
  project = await makeTempProject('cairn-mcp-fuzz-');
  expect((await runInProcess(project.root, ['init'])).code).toBe(0);
  client = new LineClient();
  const cairn = await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
  server = await serveStdio(cairn, { stdin: client.stdin, stdout: client.stdout });
  const init = await client.call('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'fuzz', version: '0' },
  });
  expect(init.result).toBeDefined();
  client.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
  );
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const FIELDS = [
  'text',
  'memoryId',
  'query',
  'category',
  'review',
  'source',
  'path',
  'since',
  'limit',
  'agentId',
  'threadKey',
  'nodeId',
  '__proto__',
  'constructor',
];
const value = fc.oneof(
  hostileString,
  cairnMarker,
  controlText,
  pathLike,
  fc.anything(),
  fc.constantFrom('UNIT:11111111-1111-4111-8111-111111111111', 'RAW:MEMORY.md#L1-L2', 'fact', 5),
);
/** Any arguments at all: a non-object gets -32602 (guardToolCalls), never -32603. */
const toolArgs = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 }),
  fc.object(),
  fc.anything(),
);

/** Arguments of the right shape for each tool, hostile inside: these reach the engine. */
const text = hostileString;
const id = fc.oneof(
  hostileString,
  fc.constantFrom('UNIT:11111111-1111-4111-8111-111111111111', 'RAW:MEMORY.md#L1-L2'),
);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const shaped: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  memory_add: fc.record(
    { text, category: opt(fc.constantFrom('fact', 'decision')), source: opt(hostileString) },
    { requiredKeys: ['text'] },
  ),
  memory_replace: fc.record({ memoryId: id, text }),
  memory_remove: fc.record({ memoryId: id }),
  memory_get: fc.record({ memoryId: id }),
  memory_search: fc.record({ query: hostileString, limit: opt(fc.integer({ min: 1, max: 100 })) }),
  memory_list: fc.record({ since: opt(hostileString), path: opt(hostileString) }),
  memory_read_head: fc.constant({}),
  memory_expand: fc.record({ nodeId: hostileString, agentId: hostileString }),
  memory_threads: fc.record({ agentId: opt(hostileString) }),
  memory_thread_head: fc.record({ agentId: hostileString, threadKey: hostileString }),
  memory_session_context: fc.record({ agentId: hostileString, sessionKey: hostileString }),
  memory_context_pack: fc.record(
    { query: hostileString, agentId: hostileString, threadKey: opt(hostileString) },
    { requiredKeys: ['query', 'agentId'] },
  ),
  memory_fix_patterns: fc.record({ state: opt(hostileString) }),
  memory_fix_pattern: fc.record({ id: hostileString }),
  memory_fix_pattern_approve: fc.record({ id: hostileString, reason: opt(hostileString) }),
  memory_fix_pattern_deprecate: fc.record({ id: hostileString, reason: opt(hostileString) }),
};
const wellShaped = fc
  .constantFrom(...MEMORY_TOOL_NAMES)
  .chain((name) => fc.tuple(fc.constant(name), shaped[name] ?? fc.constant({})))
  .map(([name, args]) => ({
    name,
    line: (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
  }));

/** The tool call as a line: usually JSON.stringify, sometimes text spliced in that no serializer makes. */
const toolCall = fc.oneof(
  { weight: 6, arbitrary: wellShaped },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...MEMORY_TOOL_NAMES, 'nosuch_tool'), toolArgs)
      .map(([name, args]) => ({
        name,
        line: (id: number) =>
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name, arguments: args },
          }),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('memory_add', 'memory_search', 'memory_get'),
        fc.constantFrom('text', 'query', 'memoryId'),
        fc.oneof(
          fc.constant(deepJson(10_000, 'object')),
          fc.constant(deepJson(10_000, 'array')),
          longText.map((text) => JSON.stringify(text)),
        ),
      )
      .map(([name, field, json]) => ({
        name,
        line: (id: number) =>
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{"${field}":${json}}}}`,
      })),
  },
);

function expectTypedAnswer(response: Response): boolean {
  if (response.error) {
    expect(JSON_RPC_CODES, JSON.stringify(response.error)).toContain(response.error.code);
    return true;
  }
  const result = response.result!;
  if (!result.isError) return false;
  const error = result.structuredContent?.error;
  if (typeof error === 'string') expect(UNIT_CODES).toContain(error);
  else if (error) {
    expect(CAIRN_CODES).toContain(error.code);
    expect(error.code, JSON.stringify(error)).not.toBe('INTERNAL');
  } else {
    // The SDK's own refusals (bad arguments, unknown tool) carry no structured content.
    expect(result.content?.[0]?.text).toMatch(/^MCP error -326(0[12]|00)/);
  }
  return true;
}

describe('hostile MCP inputs', () => {
  it('tool calls: a typed answer; a refusal or a read changes no memory file', async () => {
    await fc.assert(
      fc.asyncProperty(toolCall, async ({ name, line }) => {
        const memory = await memorySnapshot(project.root);
        const refused = expectTypedAnswer(await client.request(line));
        if (refused || READ_TOOLS.has(name)) {
          expect(await memorySnapshot(project.root)).toEqual(memory);
        }
        await expectHealthyWorkspace(project.root);
      }),
      FUZZ_RUNS,
    );
  }, 120_000);

  it('garbage lines: the server keeps answering and changes nothing', async () => {
    const garbage = fc.oneof(
      hostileString,
      fc.constantFrom(deepJson(10_000, 'array'), '{"jsonrpc":"2.0","id":', '{}', '[]', 'null'),
      fc.anything().map((v) => JSON.stringify(v) ?? ''),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (line) => {
        const memory = await memorySnapshot(project.root);
        const ping = await client.raw(line);
        expect(ping.result).toEqual({});
        expect(await memorySnapshot(project.root)).toEqual(memory);
      }),
      { ...FUZZ_RUNS, numRuns: Math.ceil(FUZZ_RUNS.numRuns / 2) },
    );
  }, 120_000);

  it('links: a link put under .cairn/ while the server runs is never followed by any tool', async () => {
    const outside = await makeLinkTargets();
    try {
      await fc.assert(
        fc.asyncProperty(linkSpot, linkTarget, wellShaped, async (spot, target, { line }) => {
          const before = await snapshotTree(outside.root);
          const response = await withLink(project.root, spot, target, outside.root, () =>
            client.request(line),
          );
          expectTypedAnswer(response);
          expect(JSON.stringify(response)).not.toContain(OUTSIDE_MARKER);
          expect(await snapshotTree(outside.root)).toEqual(before);
        }),
        { ...FUZZ_RUNS, numRuns: Math.ceil(FUZZ_RUNS.numRuns / 2) },
      );
    } finally {
      await outside.cleanup();
    }
  }, 120_000);
});
