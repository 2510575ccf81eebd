/**
 * Child process for the concurrency test: ends one "session" by recording
 * facts for its own thread and refreshing that thread head and MEMORY.md.
 * Run with `node --import tsx head-writer.fixture.ts <root> <n>`.
 */
import { createFileBackend } from '@cairn/backend-file';
import { createWorkspaceWriter } from '../workspace-writer';
import { HeadStore } from './head-store';
import { refreshGlobalHead, refreshThreadHead } from './head-writer';

const [root, n] = process.argv.slice(2) as [string, string];
const store = new HeadStore(root);
const writer = createWorkspaceWriter(root, createFileBackend());
const now = () => new Date();
const threadKey = `topic-${n}`;
store.threads.addFacts({
  agentId: 'agent-a',
  threadKey,
  nodeId: `node:fixture-${n}`,
  facts: {
    status: `status of ${n}`,
    decisions: [],
    commitments: [],
    blockers: [],
    nextSteps: [`next for ${n}`],
  },
  at: now().toISOString(),
  session: true,
});
const thread = await refreshThreadHead(writer, store, { agentId: 'agent-a', threadKey, now });
const head = await refreshGlobalHead(writer, store, { units: [], budgetTokens: 4000, now });
store.close();
process.stdout.write(JSON.stringify({ thread, head }));
