import { CairnError } from '@cairn/core';
import { parse } from 'smol-toml';

/**
 * Textual edits of Codex's config.toml that keep the user's comments and
 * formatting: Cairn's tables live in marked regions (toml-regions.ts) that
 * install replaces and uninstall removes; nothing outside them is
 * rewritten, except a stray table Cairn owns (`[mcp_servers.cairn]`, a
 * trust entry of Cairn's hooks) that would otherwise be defined twice.
 * Every edit is checked by parsing the result and comparing everything
 * that is not Cairn's with the input.
 */
type Toml = Record<string, unknown>;

export const invalidConfig = (path: string, message: string, cause?: unknown) =>
  new CairnError('INVALID_CONFIG', `${path}: ${message}`, {
    cause,
    hint: `fix ${path} by hand (Cairn changed nothing), then run the command again`,
    details: { path },
  });

export function parseToml(path: string, text: string | undefined): Toml {
  if (text === undefined || text.trim() === '') return {};
  try {
    return parse(text) as Toml;
  } catch (error) {
    throw invalidConfig(path, `not valid TOML: ${(error as Error).message.split('\n')[0]}`, error);
  }
}

export const tomlString = (value: string) => JSON.stringify(value);

function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Toml)[key])]),
  );
}

/**
 * Checks an edit: the result parses, and with `strip` (which removes Cairn's
 * entries from a parsed config) both sides are equal, so the user's settings
 * came through untouched.
 */
export function checkTomlEdit(
  path: string,
  before: string | undefined,
  after: string,
  strip: (config: Toml) => Toml,
): void {
  const old = strip(parseToml(path, before));
  let next: Toml;
  try {
    next = strip(parse(after) as Toml);
  } catch (error) {
    throw invalidConfig(
      path,
      `Cairn could not edit this file textually: ${(error as Error).message}`,
      error,
    );
  }
  if (JSON.stringify(canonical(old)) !== JSON.stringify(canonical(next))) {
    throw invalidConfig(
      path,
      "Cairn's edit would change settings that are not Cairn's (a Cairn table defined inline or in an unusual layout?)",
    );
  }
}
