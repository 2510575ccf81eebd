import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MEMORY_CATEGORIES,
  type MemoryUnit,
  memoryWorkspacePath,
  serializeUnit,
} from '@cairn/core';
import type { TextGenerator } from './text-generator';

export interface WorkspaceSpec {
  units: number;
  days: number;
  /** Approximate bytes of RAW markdown notes (outside managed units). */
  rawBytes: number;
  threads: number;
}

export interface GeneratedWorkspace {
  rootDir: string;
  /** Workspace-relative daily file names, oldest first. */
  dailyFiles: string[];
  files: number;
  units: number;
  /** Bytes of every workspace file, markers included. */
  totalBytes: number;
  rawBytes: number;
}

const FIRST_DAY = Date.UTC(2025, 0, 1);
const DAY_MS = 86_400_000;

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(random() * 4)]!;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One managed unit of one to three sentences, as `serializeUnit` writes it. */
export function syntheticUnit(text: TextGenerator, createdAt: Date): string {
  const stamp = createdAt.toISOString();
  const unit: MemoryUnit = {
    memoryId: `UNIT:${uuidFrom(text.random)}`,
    category: MEMORY_CATEGORIES[Math.floor(text.random() * MEMORY_CATEGORIES.length)]!,
    review: 'approved',
    createdAt: stamp,
    updatedAt: stamp,
    source: 'bench',
    text: Array.from({ length: 1 + Math.floor(text.random() * 3) }, text.sentence).join(' '),
  };
  return serializeUnit(unit);
}

/** Markdown notes of about `bytes` bytes: headings, paragraphs, now and then a list. */
function notes(text: TextGenerator, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const section = [`## ${text.heading()}`, '', text.paragraph(), '', text.paragraph(), ''];
    if (text.random() < 0.3) {
      section.push(...Array.from({ length: 3 }, () => `- ${text.sentence()}`), '');
    }
    const block = section.join('\n');
    parts.push(block);
    size += Buffer.byteLength(block) + 1;
  }
  return parts.join('\n');
}

/**
 * Writes a workspace straight to disk (no engine calls, so generation stays
 * fast): daily files holding notes and units, a large MEMORY.md and a few
 * thread files. Only allowed workspace names are used.
 */
export async function generateWorkspace(
  rootDir: string,
  spec: WorkspaceSpec,
  text: TextGenerator,
): Promise<GeneratedWorkspace> {
  const workspace = memoryWorkspacePath(rootDir);
  await mkdir(join(workspace, 'threads'), { recursive: true });
  const dailyShare = Math.floor((spec.rawBytes * 0.8) / spec.days);
  const sideShare = Math.floor((spec.rawBytes * 0.2) / (spec.threads + 1));
  const written = { files: 0, totalBytes: 0, rawBytes: 0 };
  const write = async (name: string, content: string, raw: number) => {
    await writeFile(join(workspace, name), content);
    written.files += 1;
    written.totalBytes += Buffer.byteLength(content);
    written.rawBytes += raw;
  };
  const dailyFiles: string[] = [];
  for (let day = 0; day < spec.days; day += 1) {
    const date = new Date(FIRST_DAY + day * DAY_MS);
    const name = `${date.toISOString().slice(0, 10)}.md`;
    const count =
      Math.floor(((day + 1) * spec.units) / spec.days) - Math.floor((day * spec.units) / spec.days);
    const body = notes(text, dailyShare);
    const units = Array.from({ length: count }, (_, i) =>
      syntheticUnit(text, new Date(date.getTime() + i * 60_000)),
    );
    await write(
      name,
      `# ${name.slice(0, 10)}\n\n${body}\n${units.join('\n')}`,
      Buffer.byteLength(body),
    );
    dailyFiles.push(name);
  }
  const memory = notes(text, sideShare);
  await write('MEMORY.md', `# Project memory\n\n${memory}`, Buffer.byteLength(memory));
  for (let i = 0; i < spec.threads; i += 1) {
    const thread = notes(text, sideShare);
    await write(
      `threads/topic-${i + 1}.md`,
      `# Thread ${i + 1}\n\n${thread}`,
      Buffer.byteLength(thread),
    );
  }
  return { rootDir, dailyFiles, units: spec.units, ...written };
}
