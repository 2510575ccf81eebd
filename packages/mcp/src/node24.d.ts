// @cairn/node24 ships plain JavaScript; this is its one export.
declare module '@cairn/node24' {
  /** The Node 24 binary from the npm registry, or undefined where it is not installed. */
  export function node24Path(): string | undefined;
}
