/**
 * qmd reports hits as `qmd://<collection>/<path>` (with `?index=<name>` when
 * a named index is used). An index built by an older qmd, or by a collection
 * rooted elsewhere (the project root, a legacy `memory/` folder), can hold
 * paths that are not the canonical layered names: lowercased or
 * "handelized" (`feat_x.md` -> `feat-x.md`), prefixed with `.cairn/memory/`,
 * absolute, or URL-encoded. Seed 000 §3.8.2: such paths are mapped back to
 * the canonical workspace names so results stay usable; anything that maps
 * to no existing file is stale and dropped. This never widens what may be
 * read: results only ever name files from the canonical list.
 */

export interface QmdLocation {
  /** The collection named in a `qmd://` URI; undefined for plain paths. */
  collection: string | undefined;
  /** The path inside the collection, `/`-separated, without query or fragment. */
  path: string;
}

const LEGACY_PREFIXES = ['.cairn/memory/', 'memory/'];

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Splits a qmd `file` value into collection and path. */
export function parseQmdLocation(file: string): QmdLocation {
  const bare = file.replace(/[?#].*$/s, '').replaceAll('\\', '/');
  const uri = /^qmd:\/\/([^/]*)\/?(.*)$/s.exec(bare);
  if (!uri) return { collection: undefined, path: decode(bare) };
  return { collection: decode(uri[1]!), path: decode(uri[2]!) };
}

/** qmd's display form of a path, in lowercase: runs of other characters become `-`. */
export function handleKey(path: string): string {
  return path
    .toLowerCase()
    .split('/')
    .map((segment, index, all) => {
      const ext = index === all.length - 1 ? (/\.[a-z0-9]+$/.exec(segment)?.[0] ?? '') : '';
      const name = ext ? segment.slice(0, -ext.length) : segment;
      return name.replace(/[^\p{L}\p{N}$]+/gu, '-').replace(/^-+|-+$/g, '') + ext;
    })
    .filter(Boolean)
    .join('/');
}

/** The forms a stale path may take, most literal first. */
function candidates(path: string, baseDir: string | undefined): string[] {
  let relative = path.replace(/^(\.\/)+/, '');
  const base = baseDir?.replaceAll('\\', '/').replace(/\/+$/, '');
  if (base && relative.startsWith(`${base}/`)) relative = relative.slice(base.length + 1);
  const forms = [relative];
  const nested = relative.lastIndexOf('/.cairn/memory/');
  if (nested >= 0) forms.push(relative.slice(nested + '/.cairn/memory/'.length));
  for (const prefix of LEGACY_PREFIXES) {
    if (relative.startsWith(prefix)) forms.push(relative.slice(prefix.length));
  }
  return forms;
}

/** Lookup tables over the canonical names, built once per search. */
export interface CanonicalPaths {
  exact: Set<string>;
  lower: Map<string, string>;
  handle: Map<string, string>;
}

export function canonicalPaths(paths: readonly string[]): CanonicalPaths {
  const lower = new Map<string, string>();
  const handle = new Map<string, string>();
  for (const path of paths) {
    if (!lower.has(path.toLowerCase())) lower.set(path.toLowerCase(), path);
    if (!handle.has(handleKey(path))) handle.set(handleKey(path), path);
  }
  return { exact: new Set(paths), lower, handle };
}

/**
 * The canonical name `path` stands for, or undefined when it names no
 * existing file. `baseDir` is the collection's folder (absolute paths under
 * it are made relative).
 */
export function normalizeQmdPath(
  path: string,
  canonical: CanonicalPaths,
  baseDir?: string,
): string | undefined {
  const forms = candidates(path, baseDir);
  for (const form of forms) if (canonical.exact.has(form)) return form;
  for (const form of forms) {
    const match = canonical.lower.get(form.toLowerCase());
    if (match) return match;
  }
  for (const form of forms) {
    const match = canonical.handle.get(handleKey(form));
    if (match) return match;
  }
  return undefined;
}
