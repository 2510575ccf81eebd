import type { RunMeta } from './report';

/** A run's metadata for the report tests (tests only): a 2-core Node 20 machine, with what a test sets. */
export function runMetaFixture(fields: Pick<RunMeta, 'date' | 'commit' | 'loadAverage'>): RunMeta {
  return {
    dirty: false,
    cpu: 'CPU',
    cores: 2,
    memoryGb: 4,
    node: 'v20.20.2',
    platform: 'linux x64',
    quick: false,
    ...fields,
  };
}
