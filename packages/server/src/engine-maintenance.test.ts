import { openMaintenance } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openProject } from './dashboard-project.fixture';
import { rawRequest, signIn } from './http-client.fixture';
import { serveDashboard } from './serve-dashboard';

let project: TempProject | undefined;
afterEach(async () => {
  await project?.cleanup();
});

describe("the review inbox over the engine's maintenance", () => {
  it('shows a real proposal, approves and undoes it; a stale one is a 409 that writes nothing', async () => {
    project = await makeTempProject();
    const cairn = await openProject(project.root);
    await cairn.init();
    const texts = [
      'Install dependencies with pnpm in this repository; npm is not used here.',
      'In this repository dependencies are installed with pnpm, never with npm.',
      'The test database runs on port 5432 locally.',
      'Locally the test database runs on port 5433.',
    ];
    for (const text of texts) expect((await cairn.add({ text })).action).toBe('created');
    await openMaintenance(cairn).run();
    const dashboard = await serveDashboard(cairn);
    try {
      const session = await signIn(dashboard.port, dashboard.url);
      const get = (path: string) =>
        rawRequest(dashboard.port, path, { headers: { cookie: session.cookie } });
      const post = (path: string) =>
        rawRequest(dashboard.port, path, {
          method: 'POST',
          body: '{}',
          headers: {
            cookie: session.cookie,
            'content-type': 'application/json',
            'x-cairn-csrf': session.csrf,
          },
        });
      const inbox = (await get('/api/review')).json();
      expect(inbox.maintenance).toBe(true);
      const kinds = inbox.proposals.map((p: { kind: string }) => p.kind).sort();
      expect(kinds).toEqual(['contradiction', 'merge']);
      const merge = inbox.proposals.find((p: { kind: string }) => p.kind === 'merge');
      expect(merge.before).toContain('pnpm');

      const approved = await post(`/api/review/proposals/${merge.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.json()).toMatchObject({ id: merge.id, state: 'approved' });
      expect((await cairn.list({ review: 'deprecated' })).length).toBe(1);
      expect((await post(`/api/review/proposals/${merge.id}/undo`)).json().state).toBe('undone');
      expect((await cairn.list({ review: 'deprecated' })).length).toBe(0);

      const contradiction = inbox.proposals.find(
        (p: { kind: string }) => p.kind === 'contradiction',
      );
      const older = contradiction.unitIds[1];
      await cairn.replace(older, 'Locally the test database listens on port 5433 over a socket.');
      const stale = await post(`/api/review/proposals/${contradiction.id}/approve`);
      expect(stale.status).toBe(409);
      expect(stale.json().error.code).toBe('CONFLICT');
      expect((await cairn.get(older)).review).toBe('approved');
      expect((await get('/api/review')).json().proposals).toEqual([]);
    } finally {
      await dashboard.close();
      cairn.closeWorking();
    }
  });
});
