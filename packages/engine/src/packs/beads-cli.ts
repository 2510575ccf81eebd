// `fs.promises` on use, not `node:fs/promises` on load: the hook bundle
// loads this module on every prompt and must not pay for fs/promises.
import { constants, promises as fs } from 'node:fs';
import { delimiter, isAbsolute, join, relative, sep } from 'node:path';
import { lazySchema } from '@cairn/core';
import * as z from 'zod/mini';
import { childProcess } from '../runtime';
import { BEADS_ID, type BeadsIssue, beadsIssueSchema, toBeadsIssue } from './beads-issue';

/** How long one `bd` call may take before the planning plane gives up on it. */
export const BD_TIMEOUT_MS = 3000;
const BD_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * Finds `bd` by PATH lookup only. The repository is untrusted, so a
 * relative PATH entry (`.`, `node_modules/.bin`, an empty entry: all of
 * them resolve in the repository) and any entry inside the project are
 * skipped: a `bd` shipped by the repository is never run.
 */
export async function findBd(
  env: NodeJS.ProcessEnv,
  projectRoot: string,
): Promise<string | undefined> {
  const root = await fs.realpath(projectRoot).catch(() => projectRoot);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const realDir = await fs.realpath(dir).catch(() => undefined);
    if (!realDir || inside(root, realDir)) continue;
    const candidate = join(realDir, 'bd');
    const real = await fs.realpath(candidate).catch(() => undefined);
    if (!real || inside(root, real)) continue;
    const info = await fs.stat(real).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (
      await fs.access(real, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

function runBd(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    childProcess().execFile(
      bin,
      args,
      {
        cwd,
        // A hook must not leave a Beads daemon behind.
        env: { ...env, BEADS_NO_DAEMON: '1' },
        timeout: BD_TIMEOUT_MS,
        maxBuffer: BD_MAX_OUTPUT_BYTES,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error) {
          const detail = String(stderr).trim().split('\n')[0] ?? '';
          reject(new Error(`bd ${args.join(' ')} failed: ${detail || error.message}`));
        } else resolve(String(stdout));
      },
    );
  });
}

/** `bd show --json` gives an array (or, in older versions, one object) of issues with details. */
const showDetailSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    dependents: z.catch(
      z.optional(z.array(z.object({ id: z.string(), dependency_type: z.catch(z.string(), '') }))),
      undefined,
    ),
  }),
);

function parseIssues(stdout: string): { issues: BeadsIssue[]; children: Map<string, string[]> } {
  const json: unknown = JSON.parse(stdout);
  const list = Array.isArray(json) ? json : [json];
  const issues: BeadsIssue[] = [];
  const children = new Map<string, string[]>();
  for (const entry of list) {
    const parsed = beadsIssueSchema.safeParse(entry);
    if (!parsed.success) continue;
    issues.push(toBeadsIssue(parsed.data));
    const detail = showDetailSchema.safeParse(entry);
    const kids = (detail.success ? (detail.data.dependents ?? []) : [])
      .filter((d) => d.dependency_type === 'parent-child')
      .map((d) => d.id);
    if (kids.length) children.set(parsed.data.id, kids);
  }
  return { issues, children };
}

export interface BdClient {
  bin: string;
  /** `bd show <id> --json`; unknown ids give no issue. */
  show(id: string): Promise<{ issue: BeadsIssue | undefined; children: string[] }>;
  /** `bd ready --json`: the open issues nothing open blocks. */
  ready(): Promise<BeadsIssue[]>;
}

export function createBdClient(bin: string, cwd: string, env: NodeJS.ProcessEnv): BdClient {
  return {
    bin,
    async show(id) {
      if (!BEADS_ID.test(id)) return { issue: undefined, children: [] };
      const { issues, children } = parseIssues(await runBd(bin, ['show', id, '--json'], cwd, env));
      const issue = issues.find((candidate) => candidate.id === id);
      return { issue, children: children.get(id) ?? [] };
    },
    async ready() {
      return parseIssues(await runBd(bin, ['ready', '--json'], cwd, env)).issues;
    },
  };
}
