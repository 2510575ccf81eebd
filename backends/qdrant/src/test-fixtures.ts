import { createServer } from 'node:net';
import { fixtureUnit, writeWorkspaceFile } from '@cairn/testkit';

/** Test helpers (not part of the package API). */

export {
  fixtureUnit as unit,
  fixtureUnitId as unitId,
  writeWorkspaceFile,
} from '@cairn/testkit';

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A head about the quokkaflare deploy and unit 1 (pnpm), in MEMORY.md. */
export function writeQuokkaflareHead(root: string): Promise<void> {
  return writeWorkspaceFile(
    root,
    'MEMORY.md',
    `# Head\n\nThe quokkaflare deploys blue-green.\n\n${fixtureUnit(1, 'Use pnpm for dependency management.')}\n`,
  );
}
