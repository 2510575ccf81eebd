import { join } from 'node:path';
import { openCairn } from '@cairn/engine';
import { type DescribeHarnessOptions, describeHarness } from '@cairn/testkit';
import { createOpenclawHarness } from './openclaw-harness';

describeHarness({
  name: 'openclaw',
  adapter: createOpenclawHarness(),
  fixturesDir: join(import.meta.dirname, '..', 'fixtures', 'session'),
  // testkit types `transcript` as optional where the engine returns null (reported to the lead).
  openCairn: ((root: string, options: { env: Record<string, string> }) =>
    openCairn(root, options)) as unknown as DescribeHarnessOptions['openCairn'],
});
