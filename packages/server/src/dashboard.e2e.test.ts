import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryWorkspacePath } from '@cairn/core';
import { type Cairn, openMaintenance } from '@cairn/engine';
import { makeTempProject, type TempProject } from '@cairn/testkit';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProject, type SeededProject, seedProject } from './dashboard-project.fixture';
import type { Refusal } from './request-guard';
import { type DashboardHandle, serveDashboard } from './serve-dashboard';

/*
 * The dashboard in a real browser: Debian's Chromium driven by
 * playwright-core (`npx playwright install` cannot run here; CI installs
 * the `chromium` package). One browser for the file, one page reused.
 * CAIRN_UPDATE_SCREENSHOTS=1 writes docs/images/dashboard/*.png.
 */

const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is missing: apt-get install chromium (CI does), or set CAIRN_CHROMIUM`;
if (skip) console.warn(`skipping the dashboard browser tests: ${skip}`);
const SHOTS = fileURLToPath(new URL('../../../docs/images/dashboard/', import.meta.url));
const updateShots = process.env.CAIRN_UPDATE_SCREENSHOTS === '1';

let project: TempProject;
let seeded: SeededProject;
let cairn: Cairn;
let readonly: Cairn;
let dashboard: DashboardHandle;
let readonlyDashboard: DashboardHandle;
let context: BrowserContext;
let page: Page;
let evil: Server;
let evilPort: number;
/** A merge proposal of two near-duplicate units a maintenance run made. */
let merge: { id: string; dropped: string };
/** What the dashboard's guard turned away, as `cairn ui` reports it. */
const refusals: Refusal[] = [];

/** A page another site serves: it tries to read and write the dashboard. */
function evilSite(): Promise<number> {
  evil = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>evil</title><p>evil page</p>');
  });
  return new Promise((resolve) =>
    evil.listen(0, '127.0.0.1', () => resolve((evil.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  if (skip) return;
  project = await makeTempProject();
  seeded = await seedProject(project.root);
  cairn = await openProject(project.root);
  for (const text of [
    'Install dependencies with pnpm in this repository; npm is not used here.',
    'In this repository dependencies are installed with pnpm, never with npm.',
  ]) {
    await cairn.add({ text });
  }
  const run = await openMaintenance(cairn).run();
  const proposal = run.action === 'ran' ? run.proposals.find((p) => p.kind === 'merge') : undefined;
  if (!proposal) throw new Error('fixture: the maintenance run proposed no merge');
  merge = { id: proposal.id, dropped: proposal.patch.ops[0]!.memoryId };
  readonly = await openProject(project.root, 'readonly');
  dashboard = await serveDashboard(cairn, { onRefused: (refusal) => refusals.push(refusal) });
  readonlyDashboard = await serveDashboard(readonly);
  evilPort = await evilSite();
  const { chromium } = await import('playwright-core');
  context = await chromium.launchPersistentContext(join(project.root, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // A DNS-rebinding page and a foreign site, both resolving to this machine.
      '--host-resolver-rules=MAP rebind.test 127.0.0.1, MAP evil.test 127.0.0.1',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (dialog) => void dialog.accept());
}, 120_000);

afterAll(async () => {
  await context?.close();
  await Promise.all([dashboard?.close(), readonlyDashboard?.close()]);
  evil?.close();
  cairn?.closeWorking();
  readonly?.closeWorking();
  await project?.cleanup();
});

const daily = () => readFileSync(join(memoryWorkspacePath(project.root), seeded.dailyFile));

async function shot(name: string): Promise<void> {
  if (!updateShots) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

async function openView(id: string, title: string): Promise<void> {
  await page.getByRole('link', { name: title, exact: true }).click();
  await page.waitForURL(`**/#/${id}`);
  await page.locator(`main#view-${id} h1`, { hasText: title }).waitFor();
}

describe.skipIf(skip !== undefined)(
  `the dashboard in Chromium${skip ? ` (skipped: ${skip})` : ''}`,
  { timeout: 60_000 },
  () => {
    it('signs in through the one-time URL and renders the overview with its plots', async () => {
      await page.goto(dashboard.url);
      await page.waitForURL(`${dashboard.origin}/`);
      await page.locator('main#view-overview h1', { hasText: 'Overview' }).waitFor();
      await page.getByText('Memory size over time').waitFor();
      expect(await page.locator('figure.plot svg').count()).toBe(3);
      await shot('overview');
    });

    it('renders every view from the real project', async () => {
      await openView('units', 'Units');
      await page.locator(`tr[data-id="${seeded.approvedId}"]`).waitFor();
      await shot('units');
      await openView('review', 'Review inbox');
      await page.locator(`li[data-id="${seeded.draftId}"]`).waitFor();
      await page.locator(`li[data-id="${merge.id}"]`).getByText('Merge near duplicates').waitFor();
      await shot('review');
      await openView('receipts', 'Receipts');
      await page.locator('.turn summary').first().click();
      await page.getByText('What the injection held').first().waitFor();
      await shot('receipts');
      await openView('lineage', 'Lineage');
      await page.getByRole('button', { name: `claude-code / ${seeded.sessionKey}` }).click();
      await page.locator('.nodes button.link').first().click();
      await page
        .getByRole('article', { name: 'Node detail' })
        .getByText('Transcript excerpt')
        .waitFor();
      await shot('lineage');
      await openView('patterns', 'Fix patterns');
      await page.getByRole('button', { name: seeded.patternId }).click();
      await page.getByText('Evidence runs:').waitFor();
      await shot('patterns');
      await openView('doctor', 'Doctor');
      await page.locator('.verdict').waitFor();
      await shot('doctor');
      await openView('files', 'Files');
      await page.getByRole('button', { name: seeded.dailyFile }).click();
      await page.locator('#file-text').waitFor();
      await shot('files');
    });

    it('approves a draft from the inbox: the markdown changes, Undo puts it back', async () => {
      await openView('review', 'Review inbox');
      const card = page.locator(`li[data-id="${seeded.draftId}"]`);
      await card.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('status').getByText(`${seeded.draftId} approved.`).waitFor();
      expect(daily().toString('latin1')).toMatch(
        new RegExp(`${seeded.draftId} category=\\w+ review=approved`),
      );
      await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('status').getByText('Undone.').waitFor();
      expect(daily().toString('latin1')).toMatch(
        new RegExp(`${seeded.draftId} category=\\w+ review=draft`),
      );
    });

    it('approves a consolidation proposal: the unit is deprecated, Undo reverts it', async () => {
      await openView('review', 'Review inbox');
      const unitFile = async () =>
        readFileSync(
          join(memoryWorkspacePath(project.root), (await cairn.get(merge.dropped)).path),
          'latin1',
        );
      await page
        .locator(`li[data-id="${merge.id}"]`)
        .getByRole('button', { name: 'Approve' })
        .click();
      await page.getByRole('status').getByText(`${merge.id}: approved.`).waitFor();
      expect(await unitFile()).toMatch(
        new RegExp(`${merge.dropped} category=\\w+ review=deprecated`),
      );
      await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('status').getByText('Undone.').waitFor();
      expect(await unitFile()).toMatch(
        new RegExp(`${merge.dropped} category=\\w+ review=approved`),
      );
    });

    it('edits a unit by id and keeps every byte outside it', async () => {
      const before = daily();
      await openView('units', 'Units');
      const row = page.locator(`tr[data-id="${seeded.approvedId}"]`);
      await row.getByRole('button', { name: 'Edit' }).click();
      await row.locator('textarea').fill('Use pnpm, never npm, for dependency management here.');
      await row.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('status')
        .getByText(`${seeded.approvedId} replaced (same id).`)
        .waitFor();
      const after = daily();
      const start = before.indexOf(seeded.approvedId);
      const end = (bytes: Buffer) =>
        bytes.subarray(bytes.indexOf('<!-- cairn:memory:item:end -->', start));
      expect(after.subarray(0, start)).toEqual(before.subarray(0, start));
      expect(end(after)).toEqual(end(before));
      expect(after.toString('utf8')).toContain(
        'Use pnpm, never npm, for dependency management here.',
      );
    });

    it('shows READ_ONLY for a write on a read-only backend, and writes nothing', async () => {
      const before = daily();
      await page.goto(readonlyDashboard.url);
      await page.waitForURL(`${readonlyDashboard.origin}/`);
      await openView('units', 'Units');
      await page.getByLabel('New unit').fill('A unit the read-only backend must refuse.');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByRole('alert').getByText('READ_ONLY').waitFor();
      await shot('read-only');
      expect(daily()).toEqual(before);
    });

    it('is usable with the keyboard: a link opens a view, its title takes focus, Tab walks the form', async () => {
      await page.goto(`${dashboard.origin}/#/overview`);
      await page.getByRole('link', { name: 'Units', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/#/units');
      // The view focuses its title again when its data arrives: walk the form after that.
      await page.waitForLoadState('networkidle');
      // Runs in the page: its `document`, which Node's types do not declare.
      const focused = () =>
        page.evaluate(() => {
          const { document } = globalThis as unknown as {
            document: { activeElement: { textContent: string | null } | null };
          };
          return document.activeElement?.textContent ?? '';
        });
      await expect.poll(focused).toBe('Units');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Added from the keyboard alone.');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Add');
      await page.keyboard.press('Enter');
      await page.getByRole('status').getByText('Unit added.').waitFor();
      // This process's engine learns of the server's write from an inotify
      // event, which may arrive after the page's answer: wait for it.
      const added = async () =>
        (await cairn.list()).some((unit) => unit.text === 'Added from the keyboard alone.');
      await expect.poll(added).toBe(true);
    });

    it('refuses a foreign Origin, a rebinding Host and a browser without the cookie', async () => {
      const before = daily();
      await page.goto(`http://evil.test:${evilPort}/`);
      const attempts = await page.evaluate(async (origin) => {
        const outcome = (request: Promise<Response>) =>
          request.then(
            (answer) => `read ${answer.status}`,
            () => 'blocked',
          );
        return [
          await outcome(fetch(`${origin}/api/units`, { credentials: 'include' })),
          await outcome(
            fetch(`${origin}/api/units`, {
              method: 'POST',
              mode: 'no-cors',
              credentials: 'include',
              headers: { 'content-type': 'text/plain' },
              body: JSON.stringify({ text: 'Planted by another site.' }),
            }),
          ),
        ];
      }, dashboard.origin);
      // The page reads nothing (no CORS grant); the no-cors write gets an opaque answer.
      expect(attempts[0]).toBe('blocked');
      const foreign = refusals.filter(
        (refusal) => refusal.origin === `http://evil.test:${evilPort}`,
      );
      expect(foreign.map((refusal) => [refusal.method, refusal.path, refusal.status])).toEqual([
        ['GET', '/api/units', 403],
        ['POST', '/api/units', 403],
      ]);
      expect(daily()).toEqual(before);

      const rebound = await page.goto(`http://rebind.test:${dashboard.port}/api/units`);
      expect(rebound?.status()).toBe(403);
      expect(await page.content()).not.toContain(seeded.approvedId);
      expect(refusals.some((refusal) => refusal.host === `rebind.test:${dashboard.port}`)).toBe(
        true,
      );

      await context.clearCookies();
      await page.goto(`${dashboard.origin}/#/units`);
      await page.getByRole('alert').getByText('Not signed in').waitFor();
      expect(await page.content()).not.toContain(seeded.approvedId);
      expect(refusals.some((refusal) => refusal.status === 401)).toBe(true);
    });
  },
);
