import { fileURLToPath } from 'node:url';
import type { HarnessDeliveryContext } from '@cairn/core';
import { openCairn } from '@cairn/engine';
import { type DescribeHarnessOptions, describeHarness } from '@cairn/testkit';
import { createCodexHarness } from './codex-harness';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const adapter = createCodexHarness();

/**
 * The recorded PostCompact payload names its rollout file as
 * `<fixtures>/rollout/...` (temp paths scrubbed at capture); it is pointed
 * at the copy kept beside the fixtures so the summary can be read.
 */
function withRollout(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return payload;
  const path = (payload as { transcript_path?: unknown }).transcript_path;
  if (typeof path !== 'string' || !path.startsWith('<fixtures>/')) return payload;
  return { ...payload, transcript_path: `${fixtures}${path.slice('<fixtures>/'.length)}` };
}

describeHarness({
  name: 'codex',
  adapter: {
    declaration: adapter.declaration,
    deliver: (delivery, context) =>
      adapter.deliver(
        { ...delivery, payload: withRollout(delivery.payload) },
        context as unknown as HarnessDeliveryContext,
      ),
  },
  fixturesDir: `${fixtures}session`,
  // testkit's structural view says `transcript?: {...}`; the engine returns `null` when absent.
  openCairn: openCairn as unknown as DescribeHarnessOptions['openCairn'],
});
