export type { BackendProcessFactory } from './child-writers';
export {
  type DescribeHarnessOptions,
  describeHarness,
  type HarnessFixture,
  loadHarnessFixtures,
} from './describe-harness';
export {
  type BackendFixture,
  type DescribeMemoryBackendOptions,
  describeMemoryBackend,
} from './describe-memory-backend';
export {
  type DescribeRetrievalAdapterOptions,
  describeRetrievalAdapter,
  type RetrievalFallbackOutcome,
} from './describe-retrieval-adapter';
export { earlierSession } from './earlier-session';
export { expectCode } from './expect-code';
export { type FakeSecret, fakeSecretDump, fakeSecrets, leakedFakeSecrets } from './fake-secrets';
export { FORGING_TEXTS, type ForgingText, injectionForgeries } from './forging-texts';
export {
  DIGEST_FIXTURE_PATH,
  HISTORY_FIXTURE_POOL,
  type HistoryRecordsFixture,
  historyRecordsFixture,
  PATTERN_FIXTURE_PATH,
  recordsProjectPerTest,
} from './history-records';
export {
  COMPACTION_PROMPT_MARKERS,
  DEFAULT_COMPACTION_SUMMARY,
  DEFAULT_TEXT,
  isCompactionRequest,
  type ModelApi,
  type ModelServer,
  type ModelServerScript,
  type RecordedModelRequest,
  startModelServer,
  type ToolCallRule,
} from './model-server';
export { nonSecretCorpus } from './non-secret-corpus';
export { expectRecordsThroughRecall, type RecordPartition } from './record-recall';
export {
  firstDailyFile,
  placeLink,
  REPOSITORY_LINK_CASES,
  type RepositoryLinkCase,
} from './repository-links';
export {
  type CorpusSecret,
  generated,
  leakedCorpusSecrets,
  type SecretClass,
  secretCorpus,
} from './secret-corpus';
export { seededRandom } from './seeded-random';
export {
  type ExpectedAnchorState,
  makeStalenessRepo,
  STALENESS_CASES,
  type StalenessCase,
  type StalenessRepo,
} from './staleness-repo';
export {
  type Closable,
  type ProjectPerTest,
  type TwoCheckouts,
  tempProjectPerTest,
  twoCheckoutsPerTest,
} from './temp-project-per-test';
export { makeTempProject, snapshotTree, type TempProject } from './tree-snapshot';
export { filesUnder, runToExit, trimCaptured } from './trim-captured';
export {
  GATED_CONFIG_CASES,
  type GatedConfigCase,
  TRUST_TEST_SECRET,
  TRUST_TEST_SECRET_ENV,
} from './trust-cases';
export { runVitestOnNode, type VitestRun } from './vitest-on-node';
export {
  fixtureUnit,
  fixtureUnitId,
  writeFileAt,
  writeWorkspaceFile,
} from './workspace-fixtures';
