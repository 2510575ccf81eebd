import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cairnStatePath } from '@cairn/core';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../store';
import { HEADS_MIGRATIONS, HeadStore } from './head-store';

let project: TempProject;
beforeEach(async () => {
  project = await makeTempProject();
});
afterEach(() => project.cleanup());

describe('heads.db migrations', () => {
  it('moves the injection claims of a version 2 file to a table without rowids, keeping every claim', () => {
    mkdirSync(cairnStatePath(project.root), { recursive: true });
    const path = join(cairnStatePath(project.root), 'heads.db');
    const old = openDatabase(path);
    // A version 2 file, as earlier releases wrote it, with one claim.
    migrate(old, HEADS_MIGRATIONS.slice(0, 2));
    old.exec("INSERT INTO injections VALUES ('claude', 's1', 0, 'UNIT:a')");
    old.close();
    const store = new HeadStore(project.root);
    const session = store.sessions.startSession({
      agentId: 'claude',
      sessionKey: 's1',
      threadKey: 'main',
      harness: null,
      cwd: null,
      startedAt: '2026-05-01T00:00:00.000Z',
    });
    // The claim made before the upgrade still holds: only UNIT:b is new.
    expect(store.sessions.claimInjections(session, ['UNIT:a', 'UNIT:b'])).toEqual(['UNIT:b']);
    store.close();
    const db = openDatabase(path);
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'injections'").get() as {
      sql: string;
    };
    db.close();
    expect(sql.sql).toMatch(/WITHOUT ROWID/);
  });

  it('reads the newest facts and the session count of a version 3 file as the old queries did', () => {
    mkdirSync(cairnStatePath(project.root), { recursive: true });
    const path = join(cairnStatePath(project.root), 'heads.db');
    const old = openDatabase(path);
    migrate(old, HEADS_MIGRATIONS.slice(0, 3));
    const insert = old.prepare(
      'INSERT OR IGNORE INTO node_facts (node_id, agent_id, thread_key, facts, at, session) VALUES (?, ?, ?, ?, ?, ?)',
    );
    let seed = 17;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const fact = (index: number) => {
      const agent = next() < 0.5 ? 'claude' : 'codex';
      const thread = ['main', 'infra', 'people.alice'][Math.floor(next() * 3)]!;
      // Few distinct instants, so ties on `at` are broken by node id.
      const at = `2026-05-01T00:${String(Math.floor(next() * 40)).padStart(2, '0')}:00.000Z`;
      return [`node:${index % 150}`, agent, thread, '{"decisions":[]}', at, next() < 0.6 ? 1 : 0];
    };
    for (let index = 0; index < 120; index += 1) insert.run(...fact(index));
    const store = new HeadStore(project.root);
    const expectSameAnswers = () => {
      for (const agent of ['claude', 'codex', 'nobody']) {
        for (const thread of ['main', 'infra', 'people.alice', 'none']) {
          const newest = old
            .prepare(
              `SELECT node_id AS nodeId FROM node_facts WHERE agent_id = ? AND thread_key = ?
               ORDER BY at DESC, node_id DESC LIMIT 7`,
            )
            .all(agent, thread) as { nodeId: string }[];
          expect(store.threads.recentFacts(agent, thread, 7).map((f) => f.nodeId)).toEqual(
            newest.map((row) => row.nodeId).reverse(),
          );
          const { n } = old
            .prepare(
              'SELECT count(*) AS n FROM node_facts WHERE agent_id = ? AND thread_key = ? AND session = 1',
            )
            .get(agent, thread) as { n: number };
          expect(store.threads.sessionCount(agent, thread)).toBe(n);
        }
      }
    };
    expectSameAnswers();
    // Facts added after the upgrade, some for nodes already recorded (ignored).
    for (let index = 120; index < 200; index += 1) {
      const [nodeId, agentId, threadKey, , at, session] = fact(index) as string[];
      store.threads.addFacts({
        ...{ nodeId: nodeId!, agentId: agentId!, threadKey: threadKey!, at: at! },
        facts: { decisions: [], commitments: [], blockers: [], nextSteps: [] },
        session: Number(session) === 1,
      });
    }
    expectSameAnswers();
    const plan = old
      .prepare(
        `EXPLAIN QUERY PLAN SELECT node_id FROM node_facts WHERE agent_id = ? AND thread_key = ?
         ORDER BY at DESC, node_id DESC LIMIT 40`,
      )
      .all('claude', 'main') as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
    store.close();
    old.close();
  });
});
