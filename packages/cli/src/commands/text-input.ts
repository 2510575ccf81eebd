import type { CommandContext } from '../command';

/** The text argument of add/replace: the joined positionals, or stdin when none are given. */
export async function textArgument(context: CommandContext, skip = 0): Promise<string | undefined> {
  const words = context.positionals.slice(skip);
  if (words.length > 0) return words.join(' ');
  return context.io.readStdin();
}

/** Comma-separated flag values: `--category fact,decision`. */
export function listFlag(value: unknown): string[] | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function stringFlag(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
