import { existsSync } from 'node:fs';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type HistoryAccess,
  historyDatabasePath,
  openHistoryDatabase,
  recordToolOutcome,
} from '../history';
import type { Database } from '../store';
import { historyCandidates } from './history-plane';
import { storeRecentPatterns } from './history-runs';
import { describeEvidence, renderPackItem } from './render-pack';

let project: TempProject;
let db: Database | undefined;
let seq = 0;

beforeEach(async () => {
  project = await makeTempProject();
  seq = 0;
});
afterEach(async () => {
  db?.close();
  db = undefined;
  await project.cleanup();
});

function tool(toolName: string, input: unknown, output: unknown) {
  const access: HistoryAccess = {
    rootDir: project.root,
    db: () => (db ??= openHistoryDatabase(project.root)),
    redact: (text) => text,
  };
  seq += 1;
  return recordToolOutcome(access, {
    agentId: 'claude-code',
    sessionKey: 's1',
    threadKey: 'shop.main',
    repo: 'shop',
    namespace: 'default',
    eventId: `T:1:${seq}`,
    toolName,
    input,
    output,
    at: new Date(Date.UTC(2026, 10, 1, 0, 0, seq)).toISOString(),
  });
}

const missing = "Error: Cannot find module './lib/greet'\n  code: 'MODULE_NOT_FOUND',\n";

describe('storeRecentPatterns (the history plane over history.db)', () => {
  it('gives the plane the fix patterns the store learned, and creates no history.db in a project without one', () => {
    const none = historyCandidates({
      rootDir: project.root,
      agentId: 'claude-code',
      query: 'greet module',
      recentPatterns: storeRecentPatterns,
    });
    expect(none.candidates.filter((c) => c.id.startsWith('pattern:'))).toEqual([]);
    expect(existsSync(historyDatabasePath(project.root))).toBe(false);

    const failed = tool('Bash', { command: 'node main.js' }, { stdout: '', stderr: missing });
    tool('Write', { file_path: '/home/alice/shop/lib/greet.js', content: 'x' }, { ok: true });
    const passed = tool('Bash', { command: 'node main.js' }, { stdout: 'hello', stderr: '' });
    const patternId = passed.resolved[0]?.patternId;
    expect(patternId).toMatch(/^FIX-/);

    const signature = failed.failure?.signature ?? '';
    const [pattern] = storeRecentPatterns({
      rootDir: project.root,
      agentId: 'claude-code',
      signatures: [signature],
      limit: 5,
    });
    expect(pattern).toMatchObject({ id: patternId, signature, state: 'candidate' });
    expect(pattern?.text).toContain('/home/alice/shop/lib/greet.js');

    const result = historyCandidates({
      rootDir: project.root,
      agentId: 'claude-code',
      query: 'greet module',
      recentPatterns: storeRecentPatterns,
    });
    const item = result.candidates.find((c) => c.id === `pattern:${patternId}`);
    expect(item).toMatchObject({ trustClass: 'derived' });
    expect(item?.text).toMatch(/^Candidate fix \(not verified yet\)/);
  });

  it("carries the pattern's evidence runs (run, agent, role, tool events) in the item's provenance", () => {
    tool('Bash', { command: 'node main.js' }, { stdout: '', stderr: missing });
    tool('Write', { file_path: '/home/alice/shop/lib/greet.js', content: 'x' }, { ok: true });
    const passed = tool('Bash', { command: 'node main.js' }, { stdout: 'hello', stderr: '' });
    const patternId = passed.resolved[0]?.patternId;
    const result = historyCandidates({
      rootDir: project.root,
      agentId: 'claude-code',
      query: 'greet module',
      recentPatterns: storeRecentPatterns,
    });
    const item = result.candidates.find((c) => c.id === `pattern:${patternId}`);
    expect(item?.provenance).toMatchObject({
      kind: 'run',
      id: 's1',
      evidence: [{ run: 's1', agent: 'claude-code', role: 'origin', events: ['T:1:1', 'T:1:3'] }],
    });
    expect(describeEvidence(item!.provenance)).toBe('run s1 (claude-code, origin: T:1:1 → T:1:3)');
    // The injected label names the first run only: the evidence list is for `cairn pack` and receipts.
    expect(renderPackItem(item!)).not.toContain('T:1:3');
  });
});
