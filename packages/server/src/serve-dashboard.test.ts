import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryWorkspacePath } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import { makeTempProject, snapshotTree, type TempProject } from '@cairn/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type SeededProject, seedProject } from './dashboard-project.fixture';
import { rawRequest, signIn } from './http-client.fixture';
import { MAX_BODY_BYTES } from './http-io';
import { type DashboardHandle, serveDashboard } from './serve-dashboard';

let project: TempProject;
let seeded: SeededProject;
let cairn: Cairn;
let dashboard: DashboardHandle;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  project = await makeTempProject();
  seeded = await seedProject(project.root);
  cairn = await openProject(project.root);
  dashboard = await serveDashboard(cairn);
}, 60_000);
afterAll(async () => {
  await dashboard?.close();
  cairn?.closeWorking();
  await project?.cleanup();
});

const daily = () => readFileSync(join(memoryWorkspacePath(project.root), seeded.dailyFile));
const api = (path: string, options: Parameters<typeof rawRequest>[2] = {}) =>
  rawRequest(dashboard.port, path, {
    ...options,
    headers: { cookie: session.cookie, ...options.headers },
  });
const write = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  api(path, {
    method,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'x-cairn-csrf': session.csrf, ...headers },
  });

describe('the dashboard guard', () => {
  it('refuses a rebinding Host, even on the sign-in link, which a HEAD does not use up either', async () => {
    const path = new URL(dashboard.url).pathname;
    for (const target of ['/', path, '/api/units']) {
      const refused = await rawRequest(dashboard.port, target, {
        headers: { host: `rebind.example:${dashboard.port}` },
      });
      expect(refused.status, target).toBe(403);
      expect(refused.body).toContain('loopback Host');
    }
    const head = await rawRequest(dashboard.port, path, { method: 'HEAD' });
    expect(head.headers['set-cookie']).toBeUndefined();
    session = await signIn(dashboard.port, dashboard.url);
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('signs in once: an HttpOnly SameSite=Strict cookie, then the link is refused', async () => {
    const again = await rawRequest(dashboard.port, new URL(dashboard.url).pathname);
    expect(again.status).toBe(401);
    expect(again.json().error.message).toContain('already used');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses the API without the session cookie, or with a made-up one', async () => {
    for (const cookie of [undefined, `cairn_ui_${dashboard.port}=forged`]) {
      const answer = await rawRequest(dashboard.port, '/api/units', {
        headers: cookie ? { cookie } : {},
      });
      expect(answer.status).toBe(401);
      expect(answer.body).not.toContain(seeded.approvedId);
    }
  });

  it('refuses a foreign Origin, a sibling localhost port included, and accepts its own', async () => {
    for (const origin of [
      'https://evil.example',
      `http://localhost:${dashboard.port + 1}`,
      'null',
    ]) {
      const answer = await api('/api/units', { headers: { origin } });
      expect(answer.status, origin).toBe(403);
    }
    const own = await api('/api/units', { headers: { origin: dashboard.origin } });
    expect(own.status).toBe(200);
  });

  it('refuses writes without the CSRF token, and changes nothing', async () => {
    const before = await snapshotTree(project.root);
    for (const headers of [{ 'x-cairn-csrf': '' }, { 'x-cairn-csrf': 'wrong' }]) {
      const answer = await write('POST', '/api/units', { text: 'Sneaky unit.' }, headers);
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('CSRF');
    }
    expect(await snapshotTree(project.root)).toEqual(before);
  });

  it('sends no CORS grant and a CSP on every answer', async () => {
    for (const path of ['/', '/assets/app.js', '/api/units']) {
      const answer = await api(path, { headers: { origin: dashboard.origin } });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('refuses a body over the limit (413) and a body that is not JSON (400)', async () => {
    const big = await write('POST', '/api/units', { text: 'x'.repeat(MAX_BODY_BYTES) });
    expect(big.status).toBe(413);
    expect(big.json().error.code).toBe('QUOTA_EXCEEDED');
    const text = await api('/api/units', {
      method: 'POST',
      body: 'text=hello',
      headers: { 'content-type': 'text/plain', 'x-cairn-csrf': session.csrf },
    });
    expect(text.status).toBe(400);
    expect(text.json().error.code).toBe('INVALID_INPUT');
  });

  it('validates paths and queries with typed errors', async () => {
    for (const path of ['../config.json', '/etc/passwd', 'threads/../../x.md', 'notes.txt']) {
      const answer = await api(`/api/memory/file?path=${encodeURIComponent(path)}`);
      expect(answer.status, path).toBe(400);
      expect(answer.json().error.code).toBe('INVALID_PATH');
    }
    expect((await api('/api/units?category=gossip')).json().error.code).toBe('INVALID_INPUT');
    expect((await api('/api/nothing')).status).toBe(404);
  });
});

describe('the dashboard API over a real project', () => {
  it('lists, filters and searches units', async () => {
    const all = (await api('/api/units')).json();
    expect(all.units.map((unit: { memoryId: string }) => unit.memoryId)).toContain(seeded.draftId);
    const drafts = (await api('/api/units?review=draft')).json();
    expect(drafts.units.every((unit: { review: string }) => unit.review === 'draft')).toBe(true);
    const found = (await api('/api/units?q=PNPM%20for')).json();
    expect(found.units.map((unit: { memoryId: string }) => unit.memoryId)).toEqual([
      seeded.approvedId,
    ]);
  });

  it('approves a draft in the markdown, same id, and undoes it', async () => {
    const path = `/api/units/${seeded.draftId}/review`;
    expect((await write('POST', path, { review: 'approved' })).json()).toMatchObject({
      action: 'reviewed',
      previous: 'draft',
    });
    expect(daily().toString('latin1')).toMatch(
      new RegExp(`${seeded.draftId} category=\\w+ review=approved`),
    );
    await write('POST', path, { review: 'draft' });
    expect(daily().toString('latin1')).toMatch(
      new RegExp(`${seeded.draftId} category=\\w+ review=draft`),
    );
  });

  it('takes a unique start of a unit id; one that no unit has is NOT_FOUND', async () => {
    const short = seeded.approvedId.slice(0, 'UNIT:'.length + 8);
    const answer = await api(`/api/units/${short}`);
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ memoryId: seeded.approvedId });
    const none = await api('/api/units/UNIT:ffffffff-ffff');
    expect(none.json().error.code).toBe('NOT_FOUND');
  });

  it('replaces a unit by id, keeping every byte outside it', async () => {
    const before = daily();
    const answer = await write('PUT', `/api/units/${seeded.approvedId}`, {
      text: 'Use pnpm (never npm) for dependency management here.',
    });
    expect(answer.json()).toMatchObject({ action: 'replaced', memoryId: seeded.approvedId });
    const after = daily();
    const head = before.indexOf(seeded.approvedId);
    const tailOf = (bytes: Buffer) =>
      bytes.subarray(bytes.indexOf('<!-- cairn:memory:item:end -->', head));
    expect(after.subarray(0, head)).toEqual(before.subarray(0, head));
    expect(tailOf(after)).toEqual(tailOf(before));
    expect(after.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe(true);
  });

  it('saves an edit of the user text exactly, and refuses one that touches a unit or a stale base', async () => {
    const file = (await api(`/api/memory/file?path=${seeded.dailyFile}`)).json();
    expect(file.editable).toBe(true);
    const edited = file.content.replace('## My notes', '## My own notes');
    const saved = await write('PUT', '/api/memory/file', {
      path: seeded.dailyFile,
      content: edited,
      baseHash: file.hash,
    });
    expect(saved.status, saved.body).toBe(200);
    const bytes = daily();
    expect(bytes.includes(Buffer.from('## My own notes'))).toBe(true);
    expect(bytes.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe(true);
    const unitEdit = saved.json().content.replace('The release checklist', 'The release list');
    const refused = await write('PUT', '/api/memory/file', {
      path: seeded.dailyFile,
      content: unitEdit,
      baseHash: saved.json().hash,
    });
    expect(refused.json().error.code).toBe('INVALID_INPUT');
    const stale = await write('PUT', '/api/memory/file', {
      path: seeded.dailyFile,
      content: edited,
      baseHash: file.hash,
    });
    expect(stale.status).toBe(409);
    expect(daily()).toEqual(bytes);
  });

  it('approves, rejects and reopens a fix pattern', async () => {
    const decide = (what: string) => write('POST', `/api/patterns/${seeded.patternId}/${what}`, {});
    expect((await decide('approve')).json().pattern.state).toBe('verified');
    expect((await decide('undo')).json().pattern.state).toBe('candidate');
    expect((await decide('reject')).json().pattern.state).toBe('deprecated');
    expect((await decide('undo')).json().pattern.state).toBe('candidate');
  });

  it('answers every view: overview, review, receipts, lineage, patterns, doctor, files', async () => {
    const overview = (await api('/api/overview')).json();
    expect(overview.counts.units).toBeGreaterThanOrEqual(4);
    expect(overview.turns.length).toBeGreaterThan(0);
    const review = (await api('/api/review')).json();
    expect(review).toMatchObject({ proposals: [], stale: [], maintenance: true });
    expect(review.draftsTotal).toBe(review.drafts.length);
    const receipts = (await api('/api/receipts')).json().receipts;
    expect(receipts.length).toBeGreaterThan(0);
    const lineage = (await api('/api/lineage/sessions')).json();
    expect(lineage.sessions.map((row: { sessionKey: string }) => row.sessionKey).sort()).toEqual([
      's-1',
      's-2',
    ]);
    const nodes = (await api(`/api/lineage/session?agent=${seeded.agentId}&session=s-1`)).json()
      .nodes;
    const expanded = (
      await api(`/api/lineage/nodes/${nodes[0].id}?agent=${seeded.agentId}`)
    ).json();
    expect(expanded.node.id).toBe(nodes[0].id);
    const other = await api(`/api/lineage/nodes/${nodes[0].id}?agent=codex`);
    expect(other.json().error.code).toBe('NOT_FOUND');
    expect((await api('/api/doctor')).json().report.files).toBeGreaterThan(0);
    expect((await api('/api/memory/files')).json().files.length).toBeGreaterThan(2);
  });
});

describe('the dashboard on a read-only backend', () => {
  it('refuses every write with READ_ONLY and writes nothing', async () => {
    const readonly = await openProject(project.root, 'readonly');
    const server = await serveDashboard(readonly);
    try {
      const own = await signIn(server.port, server.url);
      const send = (method: string, path: string, body: unknown) =>
        rawRequest(server.port, path, {
          method,
          body: JSON.stringify(body),
          headers: {
            cookie: own.cookie,
            'x-cairn-csrf': own.csrf,
            'content-type': 'application/json',
          },
        });
      const before = await snapshotTree(project.root);
      const file = (
        await rawRequest(server.port, '/api/memory/file?path=MEMORY.md', {
          headers: { cookie: own.cookie },
        })
      ).json();
      expect(file.editable).toBe(false);
      for (const [method, path, body] of [
        ['POST', '/api/units', { text: 'A unit on a read-only backend.' }],
        ['PUT', `/api/units/${seeded.approvedId}`, { text: 'Replaced.' }],
        ['PUT', '/api/memory', { content: '# replaced\n' }],
        [
          'PUT',
          '/api/memory/file',
          { path: 'MEMORY.md', content: `${file.content}x`, baseHash: file.hash },
        ],
      ] as const) {
        const answer = await send(method, path, body);
        expect(answer.status, path).toBe(403);
        expect(answer.json().error.code, path).toBe('READ_ONLY');
      }
      expect(await snapshotTree(project.root)).toEqual(before);
    } finally {
      await server.close();
      readonly.closeWorking();
    }
  });

  it('will not bind a non-loopback host', async () => {
    await expect(serveDashboard(cairn, { host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
