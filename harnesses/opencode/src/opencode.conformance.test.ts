import { fileURLToPath } from 'node:url';
import { openCairn } from '@cairn/engine';
import {
  describeHarness,
  earlierSession,
  expectCode,
  loadHarnessFixtures,
  makeTempProject,
} from '@cairn/testkit';
import { describe, expect, it } from 'vitest';
import { createOpencodeHarness, opencodeFidelity, VERSION } from './index';

const fixturesDir = fileURLToPath(new URL('../fixtures/session', import.meta.url));
const adapter = createOpencodeHarness({ pluginSpec: 'file:///opt/cairn/dist/plugin.js' });

describeHarness({ name: 'opencode', adapter, fixturesDir, openCairn });

describe('opencode deliver', () => {
  it('exports the harness shape', () => {
    expect(typeof VERSION).toBe('string');
    expect(adapter.declaration).toBe(opencodeFidelity);
    expect(opencodeFidelity.checkedVersion).toBe('1.18.33');
  });

  it('answers prompts and starts with lines for the system prompt, compaction with context', async () => {
    const project = await makeTempProject('cairn-opencode-deliver-');
    const cairn = await openCairn(project.root, { env: {} });
    try {
      await cairn.init();
      await cairn.add({ text: 'The staging cluster is called kestrel-stage.' });
      // Session start asks with the thread's state: an earlier session of this agent named the cluster.
      await earlierSession(cairn.lifecycle, {
        cwd: project.root,
        agentId: 'reviewer',
        prompt: 'Deploy the release to kestrel-stage.',
        finalAnswer: 'The release is built; it goes to kestrel-stage tomorrow.',
      });
      const fixtures = await loadHarnessFixtures(fixturesDir);
      const context = { lifecycle: cairn.lifecycle, env: { CAIRN_AGENT_ID: 'reviewer' } };
      const results = [];
      for (const fixture of fixtures) {
        results.push(await adapter.deliver(fixture, context));
      }
      expect(results.every((r) => r.agentId === 'reviewer')).toBe(true);
      const start = results[0]!.output as { system: string[] };
      // The unit itself, relevant to the thread state the earlier session left.
      expect(start.system.join('\n')).toContain('The staging cluster is called kestrel-stage.');
      const compacting = results.find((r) => r.calls.includes('pre-compaction'))!;
      expect(compacting.output).toHaveProperty('context');
    } finally {
      cairn.closeWorking();
      await project.cleanup();
    }
  });

  it('refuses an unknown hook and a session event without a session', async () => {
    const project = await makeTempProject('cairn-opencode-deliver-');
    const cairn = await openCairn(project.root, { env: {} });
    try {
      const context = { lifecycle: cairn.lifecycle, env: {} };
      await expectCode(
        adapter.deliver({ hookEvent: 'session.updated', payload: {} }, context),
        'INVALID_INPUT',
      );
      await expectCode(
        adapter.deliver(
          { hookEvent: 'session.idle', payload: { type: 'session.idle', properties: {} } },
          context,
        ),
        'INVALID_INPUT',
      );
    } finally {
      cairn.closeWorking();
      await project.cleanup();
    }
  });
});
