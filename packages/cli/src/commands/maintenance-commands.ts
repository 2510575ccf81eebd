import type { CommandSpec } from '../command';
import { EXIT } from '../exit-codes';

export const reindexCommand: CommandSpec = {
  name: 'reindex',
  summary: 'Rebuild the search index under .cairn/index/ from the markdown',
  usage: 'cairn reindex [--json]',
  options: {},
  positionals: { min: 0, max: 0 },
  async run({ open }) {
    const stats = await open().reindex();
    return {
      json: { ok: true, ...stats },
      text: `indexed ${stats.filesScanned} files, ${stats.chunksWritten} chunks in ${Math.round(stats.ms)} ms`,
    };
  },
};

export const doctorCommand: CommandSpec = {
  name: 'doctor',
  summary: 'Check the workspace: damaged unit markers (read as RAW, nothing lost) and more',
  usage: 'cairn doctor [--json]',
  options: {},
  positionals: { min: 0, max: 0 },
  async run({ open }) {
    const report = await open().doctor();
    const lines = [
      `${report.files} files, ${report.units} units`,
      ...report.issues.map(
        (i) => `  ! ${i.path}:${i.line} ${i.kind}: ${i.message} (kept as raw text)`,
      ),
      report.ok
        ? 'ok'
        : `${report.issues.length} issue(s): fix the markers by hand; nothing was dropped`,
    ];
    return {
      json: { ...report },
      text: lines.join('\n'),
      ...(report.ok ? {} : { exitCode: EXIT.FAILED }),
    };
  },
};
