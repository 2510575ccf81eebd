import { basename, resolve } from 'node:path';
import { exportProject, formatBytes, importProject, VERSION } from '@cairn/engine';
import type { CommandSpec } from '../command';
import { stringFlag } from './text-input';

/** `cairn-export-<folder>-<UTC date and time>.jsonl.gz`, in the current folder. */
function defaultArchiveName(root: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const folder = basename(resolve(root)).replace(/[^A-Za-z0-9._-]+/g, '-') || 'project';
  return `cairn-export-${folder}-${stamp}.jsonl.gz`;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export const exportCommand: CommandSpec = {
  name: 'export',
  summary:
    'Write everything the project holds (memory files, settings, lineage, history, receipts) to one archive',
  usage: 'cairn export [--out <file>] [--json]',
  options: { out: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  async run({ root, values }) {
    const out = resolve(stringFlag(values.out) ?? defaultArchiveName(root, new Date()));
    const result = await exportProject(root, out, { version: VERSION });
    const databases = Object.entries(result.rows).reduce<Record<string, number>>(
      (acc, [table, rows]) => {
        const db = table.split('.')[0]!;
        acc[db] = (acc[db] ?? 0) + rows;
        return acc;
      },
      {},
    );
    const rows = Object.entries(databases)
      .map(([db, count]) => `${db} ${count}`)
      .join(', ');
    return {
      json: { ok: true, ...result },
      text: [
        `Exported ${result.files} files and ${total(result.rows)} rows (${rows || 'no databases yet'}) to ${result.path} (${formatBytes(result.bytes)}).`,
        'Restore with `cairn import <file>` in this project or a new clone (docs/TEAMS.md).',
      ].join('\n'),
    };
  },
};

export const importCommand: CommandSpec = {
  name: 'import',
  summary:
    'Restore an archive `cairn export` wrote into this project, empty or not (importing twice is importing once)',
  usage: 'cairn import <file> [--json]',
  options: {},
  positionals: { min: 1, max: 1 },
  // Restoring into a fresh clone or an empty folder is what the archive is for.
  opensUninitialized: true,
  async run({ open, positionals }) {
    const cairn = await open();
    const archive = resolve(positionals[0]!);
    const result = await importProject(cairn.rootDir, archive, cairn.writer);
    const inserted = Object.values(result.rows).reduce((a, s) => a + s.inserted, 0);
    const skipped = Object.values(result.rows).reduce((a, s) => a + s.skipped, 0);
    const { written, unchanged, kept } = result.files;
    return {
      json: { ok: true, ...result },
      text: [
        `Imported ${archive} (written ${result.createdAt}): ${inserted} rows added, ${skipped} already here; ${written.length} files restored, ${unchanged.length} unchanged.`,
        ...(kept.length
          ? [
              `Kept this project's own version of ${kept.length} file(s) that differ from the archive's (compare with git, or import into an empty folder to see the archive's):`,
              ...kept.map((path) => `  ${path}`),
            ]
          : []),
      ].join('\n'),
    };
  },
};
