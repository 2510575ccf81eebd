import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import { type DescribeHarnessOptions, describeHarness } from '@cairn/testkit';
import { createClaudeCodeHarness } from './claude-code-harness';

describeHarness({
  name: 'claude-code',
  adapter: createClaudeCodeHarness(),
  fixturesDir: fileURLToPath(new URL('../fixtures/session', import.meta.url)),
  // testkit's CairnLike types `expand().transcript` as optional, the engine returns null: same use.
  openCairn: openCairn as unknown as DescribeHarnessOptions['openCairn'],
});
