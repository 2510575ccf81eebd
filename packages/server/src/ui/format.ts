/** `2026-05-01T09:14:10.000Z` as `2026-05-01 09:14`. */
export function when(iso: string | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

export function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} kB`;
  return `${(count / 1024 / 1024).toFixed(1)} MB`;
}
