import type { MemorySearchResult } from '@cairn/core';
import { defineTool, type MemoryTool, READ_ONLY } from './define-tool';
import { DIGEST_TOOLS } from './digest-tools';
import { HISTORY_TOOLS } from './history-tools';
import { MAINTENANCE_TOOLS } from './maintenance-tools';
import { memoryContextPack } from './pack-tool';
import { redactedOutcome, refuseRedactedOverwrite } from './redact-output';
import { MEMORY_TOOL_NAMES, type MemoryToolName } from './tool-names';
import type { ToolOutcome } from './tool-results';
import {
  addInput,
  addOutput,
  getInput,
  getOutput,
  listInput,
  listOutput,
  readHeadInput,
  readHeadOutput,
  removeInput,
  removeOutput,
  replaceInput,
  replaceOutput,
  searchInput,
  searchOutput,
} from './tool-schemas';
import { WORKING_TOOLS } from './working-tools';

/**
 * A `failed` result from the engine is a tool error that keeps seed 003's
 * shape. The text echoed (and a duplicate's `existing` text) is redacted.
 */
function unitOutcome(result: { action: string }): ToolOutcome {
  return redactedOutcome(result, result.action === 'failed');
}

const memoryAdd = defineTool({
  name: 'memory_add',
  title: 'Add a memory',
  description:
    "Store one durable memory as a managed unit in today's daily file (.cairn/memory/YYYY-MM-DD.md). " +
    'Pass the complete statement; the category is inferred when absent. Returns `created` with a stable ' +
    'memoryId, or `duplicate` (nothing written) when the same memory already exists. Empty or oversized ' +
    'text is a tool error with `error` set to its code (text_required, text_too_long, ...). With a ' +
    'read-only backend it is a tool error with code READ_ONLY and nothing is written.',
  inputSchema: addInput,
  outputSchema: addOutput,
  // Not idempotent: a unit added as `deprecated` is skipped by duplicate detection.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  run: async (cairn, args) => unitOutcome(await cairn.add(args)),
});

const memoryReplace = defineTool({
  name: 'memory_replace',
  title: 'Replace a memory',
  description:
    'Replace the text of a managed unit (UNIT:<uuid>, or a unique start of its id), keeping its id, category and creation time. ' +
    'RAW memories are plain markdown and cannot be replaced (error not_mutable); an unknown id gives ' +
    'not_found. Returns `duplicate` (nothing written) when the new text repeats another memory. ' +
    'Secrets are redacted when you read a memory; a new text that still carries a [REDACTED:<kind>] ' +
    'placeholder for a memory holding a secret is refused with CONFLICT (ask the user to edit the file).',
  inputSchema: replaceInput,
  outputSchema: replaceOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (cairn, { memoryId, text }) => {
    await refuseRedactedOverwrite(cairn, memoryId, text);
    return unitOutcome(await cairn.replace(memoryId, text));
  },
});

const memoryRemove = defineTool({
  name: 'memory_remove',
  title: 'Remove a memory',
  description:
    'Delete a managed unit (UNIT:<uuid>, or a unique start of its id) from its daily file. RAW memories cannot be removed ' +
    '(not_mutable). Removing again reports not_found and changes nothing.',
  inputSchema: removeInput,
  outputSchema: removeOutput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (cairn, { memoryId }) => unitOutcome(await cairn.remove(memoryId)),
});

const memoryGet = defineTool({
  name: 'memory_get',
  title: 'Get a memory',
  description:
    'Read one memory by id: a managed unit (UNIT:<uuid>, or a unique start of its id) or a line range of plain markdown ' +
    '(RAW:<path>#L<start>-L<end>, as memory_search returns). Unknown ids give NOT_FOUND, malformed ids INVALID_INPUT, ' +
    'a start several ids share CONFLICT listing them. ' +
    'Secrets in the text are replaced by [REDACTED:<kind>]; `redacted` lists the kinds.',
  inputSchema: getInput,
  outputSchema: getOutput,
  annotations: READ_ONLY,
  run: async (cairn, { memoryId }) => redactedOutcome({ memory: await cairn.get(memoryId) }),
});

const memoryList = defineTool({
  name: 'memory_list',
  title: 'List memories',
  description:
    'List managed units, oldest first, optionally filtered by category, review state, creation date ' +
    'range or file path prefix. Plain markdown (RAW) is not listed: use memory_search for it. ' +
    'Secrets are replaced by [REDACTED:<kind>]; `redacted` lists the kinds.',
  inputSchema: listInput,
  outputSchema: listOutput,
  annotations: READ_ONLY,
  run: async (cairn, filter) => redactedOutcome({ units: await cairn.list(filter) }),
});

/** RAW hits carry no id from the backend; give them the one memory_get reads. */
function withRawIds(results: MemorySearchResult[]): MemorySearchResult[] {
  return results.map((hit) =>
    hit.memoryId || hit.kind === 'UNIT'
      ? hit
      : { ...hit, memoryId: `RAW:${hit.path}#L${hit.startLine}-L${hit.endLine}` },
  );
}

const memorySearch = defineTool({
  name: 'memory_search',
  title: 'Search memories',
  description:
    'Search managed units and plain markdown notes in the project memory. Results come best first ' +
    'with bounded snippets and an id to pass to memory_get (UNIT:<uuid>, or RAW:<path>#L<a>-L<b> ' +
    'for plain markdown). Deprecated units are left out unless filters.includeDeprecated is true. ' +
    'Secrets in snippets are replaced by [REDACTED:<kind>]; `redacted` lists the kinds.',
  inputSchema: searchInput,
  outputSchema: searchOutput,
  annotations: READ_ONLY,
  run: async (cairn, request) =>
    redactedOutcome({ results: withRawIds(await cairn.search(request)) }),
});

const memoryReadHead = defineTool({
  name: 'memory_read_head',
  title: 'Read MEMORY.md',
  description:
    'Read MEMORY.md, the long-term memory file: `head` is its managed region (between the Cairn ' +
    "head markers, empty when absent: the team head), `local` this clone's own head (its threads, " +
    'next actions and lineage), `content` the whole file, `exists` whether the file exists. ' +
    'Secrets are replaced by [REDACTED:<kind>]; `redacted` lists the kinds.',
  inputSchema: readHeadInput,
  outputSchema: readHeadOutput,
  annotations: READ_ONLY,
  run: async (cairn) =>
    redactedOutcome({ ...(await cairn.readHead()), local: cairn.localHead() ?? '' }),
});

export const MEMORY_TOOLS: readonly MemoryTool[] = [
  memoryAdd,
  memoryReplace,
  memoryRemove,
  memoryGet,
  memoryList,
  memorySearch,
  memoryReadHead,
  ...WORKING_TOOLS,
  memoryContextPack,
  ...DIGEST_TOOLS,
  ...HISTORY_TOOLS,
  ...MAINTENANCE_TOOLS,
];

export { MEMORY_TOOL_NAMES, type MemoryToolName };
