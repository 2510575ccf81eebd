/**
 * Test support, run in a child process by lineage-processes.test.ts through
 * `node --import tsx`: waits for "go" on stdin so every writer starts at
 * once, then appends entries and nodes and condenses, each in its own
 * transaction, like concurrent hook processes of one project.
 */
import { condenseThread } from './condense-thread';
import { openLineageStore } from './lineage-store';

export interface WriterArgs {
  rootDir: string;
  worker: number;
  agentId: string;
  /** Shared by several writers of the same agent on purpose. */
  sessionKey: string;
  threadKey: string;
  writes: number;
}

async function waitForGo(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    process.stdin.once('data', () => resolve());
    process.stdin.once('error', reject);
  });
  process.stdin.pause();
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as WriterArgs;
  process.stdout.write('ready\n');
  await waitForGo();
  const store = openLineageStore(args.rootDir);
  try {
    let condensed = 0;
    for (let i = 0; i < args.writes; i += 1) {
      store.appendTranscriptEntry({
        agentId: args.agentId,
        sessionKey: args.sessionKey,
        role: i % 2 === 0 ? 'user' : 'assistant',
        text: `worker ${args.worker} entry ${i}`,
        harness: 'test',
      });
      store.addNode({
        agentId: args.agentId,
        kind: i % 2 === 0 ? 'session_summary' : 'compaction',
        threadKey: args.threadKey,
        sessionKey: `${args.sessionKey}-${args.worker}-${i}`,
        source: 'harness',
        text: `worker ${args.worker} node ${i}`,
      });
      const result = await condenseThread(store, {
        agentId: args.agentId,
        threadKey: args.threadKey,
        threshold: 8,
      });
      if (result) condensed += 1;
    }
    process.stdout.write(`done ${JSON.stringify({ worker: args.worker, condensed })}\n`);
  } finally {
    store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
