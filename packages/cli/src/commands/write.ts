import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CairnError } from '@cairn/core';
import type { CommandContext, CommandSpec } from '../command';

async function contentFrom(context: CommandContext): Promise<string> {
  const file = context.values.file;
  if (typeof file === 'string' && file !== '-') {
    try {
      return await readFile(resolve(context.io.cwd, file), 'utf8');
    } catch (error) {
      throw new CairnError('INVALID_INPUT', `Cannot read --file ${file}`, {
        cause: error,
        hint: 'give a readable file, or pipe the content on stdin',
      });
    }
  }
  const stdin = await context.io.readStdin();
  if (stdin === undefined) {
    throw new CairnError('INVALID_INPUT', 'No content to write', {
      hint: 'pipe the new MEMORY.md on stdin or pass --file <path>; nothing was written',
    });
  }
  return stdin;
}

export const writeCommand: CommandSpec = {
  name: 'write',
  summary: 'Replace MEMORY.md (atomically) with stdin or --file',
  usage: 'cairn write [--file <path>] [--allow-empty] [--root <dir>] [--json]  < MEMORY.md',
  options: { file: { type: 'string', short: 'f' }, 'allow-empty': { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  async run(context) {
    const content = await contentFrom(context);
    // Empty or binary content is refused by the engine (INVALID_INPUT, exit 2).
    const cairn = await context.open();
    const result = await cairn.write(content, {
      allowEmpty: context.values['allow-empty'] === true,
    });
    return {
      json: { ok: true, ...result },
      text: `wrote ${result.bytes} bytes to .cairn/memory/${result.path}`,
    };
  },
};
