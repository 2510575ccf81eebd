import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  size: number;
}

/** The regular files of a `.tgz` (ustar, as npm and pnpm pack write it). */
export function tarEntries(tgz: Buffer): TarEntry[] {
  const tar = gunzipSync(tgz);
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const body = tar.subarray(offset + 512, offset + 512 + size);
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = undefined;
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === '0' || type === '7') entries.push({ path: name, size });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

export interface TarballSize {
  name: string;
  file: string;
  packed: number;
  unpacked: number;
  files: number;
  /** Bytes of `*.map` files: none once source maps stay out of the tarball. */
  maps: number;
}

export function measureTarball(name: string, file: string): TarballSize {
  const tgz = readFileSync(file);
  const entries = tarEntries(tgz);
  const sum = (list: TarEntry[]) => list.reduce((total, entry) => total + entry.size, 0);
  return {
    name,
    file,
    packed: tgz.length,
    unpacked: sum(entries),
    files: entries.length,
    maps: sum(entries.filter((entry) => entry.path.endsWith('.map'))),
  };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The markdown table of tarball sizes, smallest package name first. */
export function sizesTable(sizes: TarballSize[]): string {
  const rows = [...sizes].sort((a, b) => a.name.localeCompare(b.name));
  const total = (pick: (size: TarballSize) => number) =>
    rows.reduce((sum, size) => sum + pick(size), 0);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['Package', 'Packed', 'Unpacked', 'Files', 'Source maps']),
    line(['---', '---:', '---:', '---:', '---:']),
    ...rows.map((s) =>
      line([`\`${s.name}\``, kb(s.packed), kb(s.unpacked), `${s.files}`, kb(s.maps)]),
    ),
    line([
      '**Total**',
      kb(total((s) => s.packed)),
      kb(total((s) => s.unpacked)),
      `${total((s) => s.files)}`,
      kb(total((s) => s.maps)),
    ]),
  ].join('\n');
}

export const SIZES_START = '<!-- packages:tarballs:start -->';
export const SIZES_END = '<!-- packages:tarballs:end -->';

/**
 * `doc` with the tarball section (between its own markers, which `pnpm bench`
 * keeps as they are) replaced; appended before `## Reproduce` when missing.
 */
export function withSizesSection(doc: string, section: string): string {
  const block = `${SIZES_START}\n${section.trim()}\n${SIZES_END}`;
  const from = doc.indexOf(SIZES_START);
  const to = doc.indexOf(SIZES_END);
  if (from !== -1 && to > from)
    return doc.slice(0, from) + block + doc.slice(to + SIZES_END.length);
  const reproduce = doc.indexOf('\n## Reproduce');
  if (reproduce === -1) return `${doc.trimEnd()}\n\n${block}\n`;
  return `${doc.slice(0, reproduce)}\n${block}\n${doc.slice(reproduce)}`;
}
