import type { TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cairn } from '../index';
import { closeTestProject, openTestProject } from '../test-project.fixture';
import { applyTrustPolicy } from './allocate-budget';
import { historyCandidates } from './history-plane';
import type { HistoryPattern, RecentPatterns } from './history-runs';
import { retrieveContextPack } from './retrieve-context-pack';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  ({ project, cairn } = await openTestProject());
});
afterEach(() => closeTestProject(project, cairn));

const MIGRATION_ERROR =
  'Error: relation "users" does not exist\n    at Parser.parseErrorMessage (/app/node_modules/pg/lib/parser.js:287:98)';

async function run(sessionKey: string, threadKey: string, prompt: string, toolOutput: unknown) {
  const ids = { agentId: 'claude', sessionKey };
  await cairn.lifecycle.sessionStart({ ...ids, cwd: project.root, threadKey });
  await cairn.lifecycle.userPromptSubmit({ ...ids, prompt });
  await cairn.lifecycle.toolUse({
    ...ids,
    toolName: 'Bash',
    input: { command: 'pnpm test' },
    output: toolOutput,
  });
  await cairn.lifecycle.sessionEnd({ ...ids, deferSummary: true });
}

async function seedRuns() {
  await run('r-db', 'api.main', 'Fix the users table tests against postgres', {
    stdout: '',
    stderr: MIGRATION_ERROR,
  });
  await run('r-css', 'web.main', 'Restyle the login button', { stdout: 'ok', stderr: '' });
  await run('r-docs', 'api.main', 'Write the changelog', { stdout: 'ok', stderr: '' });
}

describe('history plane: run digests', () => {
  it("takes digests of similar runs of the request's thread only, with run provenance", async () => {
    await seedRuns();
    const query = 'users table postgres tests fail';
    const request = { rootDir: project.root, agentId: 'claude', query };
    const api = historyCandidates({ ...request, threadKey: 'api.main' });
    const digests = api.candidates.filter((c) => c.provenance.kind === 'run');
    expect(digests[0]).toMatchObject({
      trustClass: 'derived',
      provenance: { kind: 'run', id: 'r-db' },
      dedupeKey: 'run:r-db',
    });
    expect(digests[0]!.text).toContain('Fix the users table tests against postgres');
    // The gotcha in Cairn's words; its error text (tool output) only as a quotation.
    expect(digests[0]!.text).toMatch(/Gotcha 1: a node error, unresolved \(signature \w+/);
    expect(digests[0]!.text).not.toContain('does not exist');
    expect(digests[0]!.quotes).toEqual([
      {
        from: expect.stringMatching(/^error text of gotcha 1, tool event \d+:\d+$/),
        text: expect.stringMatching(/^node: Error \| relation .*users.* does not exist/),
      },
    ]);
    expect(digests[0]!.why).toMatch(
      /digest of run r-db \(failed\), this thread; evidence: node node:/,
    );
    // The latest run of this thread comes along even without shared terms.
    expect(digests.map((d) => d.provenance.id).sort()).toEqual(['r-db', 'r-docs']);
    // Another thread shares the words but is not this one: left out, named in the receipt.
    const web = historyCandidates({ ...request, threadKey: 'web.main' });
    const webRuns = web.candidates.filter((c) => c.provenance.kind === 'run');
    expect(webRuns.map((c) => c.provenance.id)).toEqual(['r-css']);
    expect(web.candidates.some((c) => c.text.includes('users'))).toBe(false);
    const left = web.otherThreads.filter((e) => e.reason === 'other-thread').map((e) => e.id);
    for (const digest of digests) expect(left).toContain(digest.id);
  });

  it('takes another thread’s digest on an explicit relevance signal only (seed 002 §6)', async () => {
    await seedRuns();
    const request = {
      rootDir: project.root,
      agentId: 'claude',
      threadKey: 'web.main',
      query: 'users table postgres tests fail',
    };
    const ids = (result: ReturnType<typeof historyCandidates>) =>
      result.candidates.filter((c) => c.provenance.kind === 'run').map((c) => c.provenance.id);
    expect(ids(historyCandidates(request))).toEqual(['r-css']);
    // The caller names the thread as related: its similar runs join, ranked by shared terms.
    expect(ids(historyCandidates({ ...request, relatedThreads: ['api.main'] }))).toEqual([
      'r-db',
      'r-css',
    ]);
    // The caller names the run: its digest is taken whatever its thread.
    expect(ids(historyCandidates({ ...request, runRef: 'r-docs' }))).toEqual(['r-docs', 'r-css']);
  });

  it('reads digests without a thread, and the pack carries them', async () => {
    await seedRuns();
    const result = historyCandidates({
      rootDir: project.root,
      agentId: 'claude',
      query: 'changelog',
    });
    expect(result.candidates.map((c) => c.provenance.id)).toEqual(['r-docs']);
    expect(result.note).toMatch(/^no thread given/);
    const pack = await retrieveContextPack(
      {
        query: 'postgres users table',
        agentId: 'claude',
        threadKey: 'api.main',
        planes: ['history'],
      },
      { rootDir: project.root, settings: cairn.settings, search: (s) => cairn.search(s) },
    );
    expect(
      pack.items.some((item) => item.provenance.kind === 'run' && item.provenance.id === 'r-db'),
    ).toBe(true);
  });
});

describe('history plane: the run the pack is for (runRef, seed 004 §7)', () => {
  it('takes the named run’s digest first, whatever the query, and its signatures’ patterns first', async () => {
    await seedRuns();
    await run('r-port', 'web.main', 'Start the dev server', {
      stdout: '',
      stderr: 'Error: listen EADDRINUSE: address already in use :::3000',
    });
    const seen: string[][] = [];
    const recentPatterns: RecentPatterns = ({ signatures }) => {
      seen.push([...signatures]);
      return [];
    };
    const request = { rootDir: project.root, agentId: 'claude', query: 'restyle button' };
    const named = historyCandidates({ ...request, runRef: 'r-db', recentPatterns });
    expect(named.candidates[0]).toMatchObject({ provenance: { kind: 'run', id: 'r-db' } });
    expect(named.candidates[0]!.why).toMatch(/the run this pack is for/);
    const plain = historyCandidates({ ...request, recentPatterns });
    expect(plain.candidates.map((c) => c.provenance.id)).not.toContain('r-db');
    // Both runs met an error: the named run's signature leads, the newest run's otherwise.
    expect(seen[0]).toHaveLength(2);
    expect(seen[0]).toEqual([seen[1]![1], seen[1]![0]]);
    // An unknown run changes nothing.
    const unknown = historyCandidates({ ...request, runRef: 'r-none', recentPatterns });
    expect(unknown.candidates).toEqual(plain.candidates);
    const pack = await retrieveContextPack(
      { ...request, runRef: 'r-db', planes: ['history'] },
      { rootDir: project.root, settings: cairn.settings, search: (s) => cairn.search(s) },
    );
    expect(pack.runRef).toBe('r-db');
    expect(pack.items[0]).toMatchObject({ provenance: { kind: 'run', id: 'r-db' } });
  });
});

describe('history plane: fix patterns (the pattern store seam)', () => {
  const pattern = (
    id: string,
    state: HistoryPattern['state'],
    signature: string,
  ): HistoryPattern => ({
    id,
    signature,
    normalized: `node: Error | relation <x> does not exist (${id})`,
    state,
    text: 'run `pnpm db:migrate` before the tests',
    evidenceRuns: ['r-db'],
  });

  it('ranks patterns of recently met signatures first, marks candidates and drops deprecated ones', async () => {
    await seedRuns();
    const seen: string[][] = [];
    let signature = '';
    const recentPatterns: RecentPatterns = (request) => {
      seen.push(request.signatures);
      signature = request.signatures[0]!;
      return [
        pattern('p-other', 'verified', '0000000000000000'),
        pattern('p-cand', 'candidate', signature),
        pattern('p-ver', 'verified', signature),
        pattern('p-dep', 'deprecated', signature),
      ];
    };
    const result = historyCandidates({
      rootDir: project.root,
      agentId: 'claude',
      threadKey: 'api.main',
      query: 'tests',
      recentPatterns,
    });
    expect(seen[0]).toHaveLength(1);
    const patterns = result.candidates.filter((c) => c.id.startsWith('pattern:'));
    expect(patterns.map((c) => c.id)).toEqual([
      'pattern:p-ver',
      'pattern:p-cand',
      'pattern:p-dep',
      'pattern:p-other',
    ]);
    expect(patterns[0]).toMatchObject({ trustClass: 'approved' });
    expect(patterns[0]!.text).toMatch(/^Verified fix for the error quoted below: /);
    expect(patterns[0]!.quotes).toEqual([
      { from: `error signature ${signature}`, text: expect.stringContaining('(p-ver)') },
    ]);
    expect(patterns[1]).toMatchObject({ trustClass: 'derived' });
    expect(patterns[1]!.text).toMatch(
      /^Candidate fix \(not verified yet\) for the error quoted below: /,
    );
    expect(patterns[0]!.why).toContain(`signature ${signature}, met by a recent run`);
    const policy = applyTrustPolicy(patterns.map((p) => ({ ...p, tokenCost: 10 })));
    expect(policy.excluded).toEqual([
      expect.objectContaining({ id: 'pattern:p-dep', reason: 'draft-or-deprecated' }),
    ]);
  });

  it('lists no patterns by default', async () => {
    await seedRuns();
    const result = historyCandidates({
      rootDir: project.root,
      agentId: 'claude',
      query: 'relation users',
    });
    expect(result.candidates.some((c) => c.id.startsWith('pattern:'))).toBe(false);
  });
});
