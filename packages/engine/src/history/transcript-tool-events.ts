import type { TranscriptEntry } from '../lineage';
import { type ToolEvent, toolEventFromRecorded } from './tool-failure';

/**
 * Tool events read back from a session's transcript. The lifecycle records
 * a tool event as its input, `\n→ `, then its output, each a string as is
 * or JSON (lineage/tool-event-text.ts); JSON never holds a raw newline, so
 * the first separator splits them.
 */
export interface TranscriptToolEvent {
  /** `<transcriptId>:<seq>`: the evidence id of the event. */
  id: string;
  seq: number;
  at: string;
  input: unknown;
  event: ToolEvent;
}

const SEPARATOR = '\n→ ';

function parsePart(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

export function transcriptToolEvents(
  transcriptId: number,
  entries: readonly TranscriptEntry[],
): TranscriptToolEvent[] {
  const events: TranscriptToolEvent[] = [];
  for (const entry of entries) {
    if (entry.role !== 'tool') continue;
    const split = entry.text.indexOf(SEPARATOR);
    const input = parsePart(split === -1 ? entry.text : entry.text.slice(0, split));
    const output = split === -1 ? '' : parsePart(entry.text.slice(split + SEPARATOR.length));
    events.push({
      id: `${transcriptId}:${entry.seq}`,
      seq: entry.seq,
      at: entry.at,
      input,
      event: toolEventFromRecorded(entry.toolName ?? 'unknown', input, output),
    });
  }
  return events;
}

/** Tools that write files, in the four harnesses (lower case). */
const EDIT_TOOLS = new Set([
  'edit',
  'multiedit',
  'write',
  'notebookedit',
  'apply_patch',
  'patch',
  'str_replace_editor',
  'create_file',
  'write_file',
  'edit_file',
]);
const PATH_FIELDS = ['file_path', 'filePath', 'path', 'notebook_path', 'file'];
/** apply_patch's file headers: `*** Update File: src/a.ts`. */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

function patchText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  for (const key of ['input', 'patch', 'patchText']) {
    if (typeof fields[key] === 'string') return fields[key] as string;
  }
  return undefined;
}

/** The files one edit-tool event names; empty for other tools. */
export function editedFiles(event: TranscriptToolEvent): string[] {
  if (!EDIT_TOOLS.has(event.event.tool.toLowerCase())) return [];
  const files: string[] = [];
  if (typeof event.input === 'object' && event.input !== null) {
    const fields = event.input as Record<string, unknown>;
    for (const key of PATH_FIELDS) {
      const value = fields[key];
      if (typeof value === 'string' && value.trim()) files.push(value.trim());
    }
  }
  const patch = patchText(event.input);
  if (patch) for (const match of patch.matchAll(PATCH_FILE)) files.push(match[1]!.trim());
  return files;
}

/** `path` relative to `cwd` when it lies inside it, else as given. */
export function displayPath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const prefix = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
