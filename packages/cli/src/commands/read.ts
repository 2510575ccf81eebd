import type { CommandSpec } from '../command';

export const readCommand: CommandSpec = {
  name: 'read',
  summary: 'Print MEMORY.md through the configured backend (empty when missing)',
  usage: 'cairn read [--root <dir>] [--json]',
  options: {},
  positionals: { min: 0, max: 0 },
  async run({ open }) {
    const result = await (await open()).read();
    return { json: { ok: true, ...result }, text: result.content.replace(/\n$/, '') };
  },
};
