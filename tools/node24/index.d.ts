/** Path of the Node 24 binary installed from the npm registry, or undefined where there is none. */
export function node24Path(): string | undefined;
