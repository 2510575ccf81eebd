import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HISTORY_MIGRATIONS,
  historyDatabasePath,
  listFixPatterns,
  openHistoryDatabase,
} from '../history';
import { type Cairn, openCairn } from '../index';

let project: TempProject;
let cairn: Cairn;
beforeEach(async () => {
  project = await makeTempProject();
  cairn = await openCairn(project.root, { env: {}, homeDir: join(project.root, 'home') });
  await cairn.init();
});
afterEach(async () => {
  cairn.closeWorking();
  await project.cleanup();
});

const bash = (sessionKey: string, command: string, response: unknown) =>
  cairn.lifecycle.toolUse({
    agentId: 'claude-code',
    sessionKey,
    toolName: 'Bash',
    input: { command },
    output: response,
  });
const importError = (dir: string) =>
  `file://${dir}/main.mjs:1\nimport { greet } from './lib/greet.mjs';\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '${dir}/lib/greet.mjs' imported from ${dir}/main.mjs\n    at finalizeResolution (node:internal/modules/esm/resolve:275:11)\n\nNode.js v20.20.0`;

describe('task history in the lifecycle (tool-use)', () => {
  it('records nothing and opens no history database while tool calls succeed', async () => {
    const result = await bash('s1', 'ls', { stdout: 'main.mjs', stderr: '', interrupted: false });
    expect(result).toEqual({ inject: '' });
    expect(existsSync(historyDatabasePath(project.root))).toBe(false);
  });

  it('answers a failure met again in another session with the fix the first session found', async () => {
    const first = await bash('s1', 'node main.mjs', { stdout: '', stderr: importError('/w/one') });
    expect(first).toEqual({ inject: '' });
    await cairn.lifecycle.toolUse({
      agentId: 'claude-code',
      sessionKey: 's1',
      toolName: 'Write',
      input: { file_path: '/w/one/lib/greet.mjs', content: 'export const greet = 1;' },
      output: { type: 'create' },
    });
    await bash('s1', 'node main.mjs', { stdout: 'hello', stderr: '' });
    await cairn.lifecycle.sessionEnd({ agentId: 'claude-code', sessionKey: 's1' });
    const again = await bash('s2', 'node ./main.mjs', {
      stdout: '',
      stderr: importError('/w/two'),
    });
    expect(again.failed).toBeUndefined();
    // The post-tool profile's pack: the fix, named by the failure it follows.
    expect(again.inject).toContain('## Cairn context pack: Known fix for this error');
    expect(again.inject).toMatch(/Candidate fix \(not verified yet\) for the error quoted below/);
    expect(again.inject).toMatch(/pattern FIX-[0-9a-f]{12} signature [0-9a-f]{16}/);
    expect(again.inject).toContain('edited `/w/one/lib/greet.mjs`');
    expect(again.inject).toContain('then `node` succeeded');
    // Shown, not applied: applied counts a session that ran the pattern's steps.
    expect(listFixPatterns(project.root)[0]).toMatchObject({ applied: 0 });
    await cairn.lifecycle.sessionEnd({ agentId: 'claude-code', sessionKey: 's2' });
    expect(listFixPatterns(project.root)[0]).toMatchObject({ applied: 0, succeeded: 1 });
  });

  it('promotes a pattern to a draft decision unit when another session verifies it, once', async () => {
    const write = (sessionKey: string) =>
      cairn.lifecycle.toolUse({
        agentId: 'claude-code',
        sessionKey,
        toolName: 'Write',
        input: { file_path: '/w/one/lib/greet.mjs', content: 'export const greet = 1;' },
        output: { type: 'create' },
      });
    const resolve = async (sessionKey: string) => {
      await bash(sessionKey, 'node main.mjs', { stdout: '', stderr: importError('/w/one') });
      await write(sessionKey);
      await bash(sessionKey, 'node main.mjs', { stdout: 'hello', stderr: '' });
      await cairn.lifecycle.sessionEnd({ agentId: 'claude-code', sessionKey });
    };
    await resolve('s1');
    expect(await cairn.list({ review: 'draft' })).toEqual([]);
    await resolve('s2');
    expect(listFixPatterns(project.root)[0]).toMatchObject({ state: 'verified' });
    const drafts = await cairn.list({ review: 'draft' });
    const decisions = drafts.filter((unit) => unit.source?.startsWith('cairn-history pattern'));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ category: 'decision' });
    expect(decisions[0]?.text).toContain('edit /w/one/lib/greet.mjs');
    expect(decisions[0]?.source).toContain('s1');
    expect(decisions[0]?.source).toContain('s2');
    await resolve('s3');
    const again = await cairn.list({ review: 'draft' });
    expect(again.filter((unit) => unit.source?.startsWith('cairn-history pattern'))).toHaveLength(
      1,
    );
  });

  it('leaves no open-failure flag behind once the session ends', async () => {
    await bash('s1', 'node main.mjs', { stdout: '', stderr: importError('/w/one') });
    await cairn.lifecycle.sessionEnd({ agentId: 'claude-code', sessionKey: 's1' });
    expect(readdirSync(join(cairnStatePath(project.root), 'history-open'))).toEqual([]);
  });
});

describe('history.db schema', () => {
  it('is at the version of its last migration', () => {
    const db = openHistoryDatabase(project.root);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as { name: string }[];
      expect(tables.map((t) => t.name)).toEqual([
        'applications',
        'failures',
        'pattern_runs',
        'patterns',
        'shared_evidence',
        'shared_files',
        'steps',
      ]);
    } finally {
      db.close();
    }
  });
});
