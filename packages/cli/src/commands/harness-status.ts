import { formatError, type HarnessStatus } from '@cairn/core';
import type { CommandContext } from '../command';
import { HARNESS_IDS, loadHarness } from '../harnesses';
import { installOptions } from './install';

/**
 * Every harness's install status in both scopes; a harness whose check fails
 * reports the problem. Some harnesses read the same files whichever scope is
 * asked (OpenClaw has one config, OpenCode reads both): a status equal to one
 * already listed is listed once.
 */
export async function harnessStatuses(context: CommandContext): Promise<HarnessStatus[]> {
  const statuses = await allStatuses(context);
  const seen = new Set<string>();
  return statuses.filter((status) => {
    const { harness, installed, details, problems, notes } = status;
    const key = JSON.stringify([harness, installed, details, problems, notes]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function allStatuses(context: CommandContext): Promise<HarnessStatus[]> {
  const statuses: HarnessStatus[] = [];
  for (const id of HARNESS_IDS) {
    for (const scope of ['project', 'user'] as const) {
      const {
        dryRun: _,
        commandNote: __,
        ...options
      } = {
        ...installOptions({ ...context, values: { ...context.values, scope } }),
      };
      try {
        const adapter = await loadHarness(id);
        statuses.push(await adapter.status(options));
      } catch (error) {
        statuses.push({
          harness: id,
          installed: false,
          scope,
          details: [],
          problems: [formatError(error)],
        });
      }
    }
  }
  return statuses;
}

export function harnessLines(statuses: HarnessStatus[]): string[] {
  return statuses
    .filter((status) => status.installed || status.problems.length > 0)
    .flatMap((status) => [
      `harness ${status.harness} (${status.scope ?? 'unknown'} scope): ${status.installed ? 'installed' : 'not installed'}`,
      ...status.details.map((detail) => `  ${detail}`),
      ...status.problems.map((problem) => `  ! ${problem}`),
      ...(status.notes ?? []).map((note) => `  ~ ${note}`),
    ]);
}
