import type { CommandSpec } from '../command';

export const initCommand: CommandSpec = {
  name: 'init',
  summary: 'Create .cairn/ in the project: MEMORY.md, DREAMS.md and .gitignore',
  usage: 'cairn init [--root <dir>] [--json]',
  options: {},
  positionals: { min: 0, max: 0 },
  async run({ open }) {
    const cairn = open();
    const result = await cairn.init();
    const lines = result.created.length
      ? result.created.map((path) => `  created ${path}`)
      : ['  already initialized; nothing changed'];
    return {
      json: {
        ok: true,
        rootDir: result.rootDir,
        created: result.created,
        warnings: cairn.warnings,
      },
      text: [`Cairn memory in ${result.rootDir}`, ...lines].join('\n'),
    };
  },
};
