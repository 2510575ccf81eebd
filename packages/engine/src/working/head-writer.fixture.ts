/**
 * Child process for the concurrency test: ends one "session" by recording
 * facts for its own thread and refreshing that thread head and MEMORY.md.
 * Run with `node --import tsx head-writer.fixture.ts <root> <n>`.
 */
import { createFileBackend } from '@cairn/backend-file';
import { createWorkspaceWriter } from '../store';
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
// Each process knows another approved unit: every one of them rewrites MEMORY.md's team region.
const units = [
  {
    memoryId: `UNIT:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    text: `Constraint of process ${n}.`,
    updatedAt: now().toISOString(),
  },
];
const head = await refreshGlobalHead(writer, store, { units, budgetTokens: 4000, now });
store.close();
process.stdout.write(JSON.stringify({ thread, head }));
