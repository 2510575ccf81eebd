export type { BackendProcessFactory } from './child-writers';
export {
  type BackendFixture,
  type DescribeMemoryBackendOptions,
  describeMemoryBackend,
} from './describe-memory-backend';
export { expectCode } from './expect-code';
export { makeTempProject, snapshotTree, type TempProject } from './tree-snapshot';
