// The super admin's audit log (/admin/audit) and the SIM page's bounded history in a real Chromium, with
// JavaScript on and off: reached from /admin, newest first, paged by keyset, filtered by a customer number and a kind
// (an unknown number is refused next to the field), at 1280 and 390 px; GET /api/admin/audit refuses an owner (403).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim } from '#server/db/entities.ts';
import { axeViolations } from '#tests/helpers/browser.ts';
import { ready } from '#tests/helpers/company.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();

let demo: Company;
let simId: number;
const SIM_EVENTS = 63;

beforeAll(async () => {
  const e = em();
  demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  // Demo AB's trail: 70 user changes and 30 SIM activations, so the log has pages and each kind some rows.
  await e.execute(
    `insert into audit_event (company_id, kind, action, target_type, target_id, after, at)
     select ?, case when g % 10 < 7 then 'user' else 'simActivated' end,
       case when g % 10 < 7 then 'createUser' else 'simActivated' end, 'User', g::text,
       case when g % 10 < 7 then jsonb_build_object('name', 'Person ' || g, 'email', 'p' || g || '@demo.test', 'role', 'member', 'by', 'cli')
            else jsonb_build_object('iccid', '8946' || lpad(g::text, 16, '0'), 'by', 'cli') end,
       now() - (200 - g) * interval '1 minute'
     from generate_series(1, 100) g`,
    [demo.id],
  );
  const sim = await e.findOneOrFail(Sim, { company: demo.id, status: 'active' }, { orderBy: { id: 'desc' } });
  simId = sim.id;
  await e.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at, before, after)
     select ?, 'updated', rate_plan_id, now() - (100 - g) * interval '1 hour',
       jsonb_build_object('invoiceLineMark', 'Märkning ' || (g - 1)), jsonb_build_object('invoiceLineMark', 'Märkning ' || g)
     from sim, generate_series(1, ?) g where sim.id = ?`,
    [simId, SIM_EVENTS, simId],
  );
});

async function adminPage(js: boolean, width?: number) {
  return portal.loggedInPage('admin@demo.test', { js, width });
}

const rows = (page: Page) => page.locator('table.admin-audit-table tbody tr');
const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('/admin/audit', () => {
  for (const js of [true, false]) {
    const tag = js ? 'JS' : 'noJS';

    it(`lists every company's rows newest first, pages by keyset and filters by company and kind (${tag})`, async () => {
      const page = await adminPage(js);
      await page.goto('/admin');
      await ready(page, js);
      await page.getByRole('link', { name: 'Granskningslogg' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/audit');
      await ready(page, js);
      // With JS the router changes the URL a moment before React draws the new page: wait for it.
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Granskningslogg');
      await expect.poll(() => rows(page).count()).toBe(50);
      // The newest row first: the last one inserted is the newest of Demo AB's (the seed's rows are older).
      const newest = await em().execute<Array<{ id: number }>>(`select id from audit_event order by id desc limit 1`);
      const firstKind = await rows(page).first().getAttribute('data-kind');
      expect(firstKind).toBe(
        (await em().execute<Array<{ kind: string }>>(`select kind from audit_event where id = ?`, [newest[0]!.id]))[0]!
          .kind,
      );
      expect(await rows(page).first().textContent()).toContain('Demo AB');

      // Older, then back to the newest: pages by ?before= (the last id of the page).
      await page.getByRole('link', { name: 'Äldre ›' }).click();
      await page.waitForURL((u) => u.searchParams.has('before'));
      await ready(page, js);
      const total = (await em().execute<Array<{ n: number }>>(`select count(*)::int as n from audit_event`))[0]!.n;
      await expect.poll(() => rows(page).count()).toBe(Math.min(50, total - 50));
      await page.getByRole('link', { name: '‹ Senaste' }).click();
      await page.waitForURL((u) => !u.searchParams.has('before'));
      await expect.poll(() => rows(page).count()).toBe(50);

      // A company by its customer number and a kind: every row is Demo AB's user changes.
      await page.getByLabel('Företagets kundnummer').fill('100001');
      await page.getByLabel('Typ').selectOption({ label: 'Användarändring' });
      await page.getByRole('button', { name: 'Visa', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('company') === '100001' && u.searchParams.get('kind') === 'user');
      await ready(page, js);
      await page.getByRole('status').filter({ hasText: 'Visar Demo AB (100001).' }).waitFor();
      const want = (
        await em().execute<Array<{ n: number }>>(
          `select count(*)::int as n from audit_event where company_id = ? and kind = 'user'`,
          [demo.id],
        )
      )[0]!.n;
      const kinds = () => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind')));
      await expect.poll(async () => new Set(await kinds())).toEqual(new Set(['user']));
      expect(await kinds()).toHaveLength(Math.min(50, want));
      expect(await page.getByLabel('Företagets kundnummer').inputValue()).toBe('100001');
      // Paging keeps the filter.
      await page.getByRole('link', { name: 'Äldre ›' }).click();
      await page.waitForURL((u) => u.searchParams.has('before') && u.searchParams.get('kind') === 'user');
      await ready(page, js);
      // With JS the URL can change a moment before the new rows are drawn: wait for them.
      await expect.poll(async () => (await kinds()).length).toBe(want - 50);
      expect(new Set(await kinds())).toEqual(new Set(['user']));

      // An unknown customer number: the reason next to the field, the value kept, no rows.
      await page.getByLabel('Företagets kundnummer').fill('FINNS-INTE');
      await page.getByRole('button', { name: 'Visa', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('company') === 'FINNS-INTE');
      await ready(page, js);
      const input = page.getByLabel('Företagets kundnummer');
      await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#audit-company-error').textContent()).toBe(
        'Inget företag har kundnumret ”FINNS-INTE”.',
      );
      expect(await input.inputValue()).toBe('FINNS-INTE');
      expect(await rows(page).count()).toBe(0);
      await page.getByRole('link', { name: 'Rensa filtret' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/audit' && u.search === '');
      await expect.poll(() => rows(page).count()).toBe(50);
      await page.context().close();
    });
  }

  for (const width of [1280, 390]) {
    it(`fits ${width} px (screenshot; no WCAG 2.1 AA violation)`, async () => {
      const page = await adminPage(true, width);
      await page.goto('/admin/audit?company=100001');
      await ready(page, true);
      expect(await noSideways(page)).toBe(true);
      await page.screenshot({ path: `test-results/admin-audit-${width}.png`, fullPage: false });
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });
  }

  it('a company row links to its own log; the company page links to it too', async () => {
    const page = await adminPage(false);
    await page.goto(`/admin/companies/${demo.id}`);
    await page.getByRole('link', { name: 'Företagets granskningslogg' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/audit' && u.searchParams.get('company') === '100001');
    await page.goto('/admin/audit');
    await rows(page).first().getByRole('link', { name: 'Visa bara Demo AB' }).click();
    await page.waitForURL((u) => u.searchParams.get('company') === '100001');
    await page.context().close();
  });

  it('GET /api/admin/audit: 403 for an owner and a member, the page for a super admin', async () => {
    const url = `${portal.server.url}/api/admin/audit?kind=user&limit=5`;
    for (const email of ['ella@demo.test', 'anna@demo.test']) {
      const res = await fetch(url, { headers: { cookie: await portal.server.sessionCookie(email) } });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: expect.any(String), issues: [] });
    }
    const res = await fetch(url, { headers: { cookie: await portal.server.sessionCookie('admin@demo.test') } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: Array<{ kind: string; company: unknown }>; nextBefore: number };
    expect(body.items).toHaveLength(5);
    expect(body.items.every((i) => i.kind === 'user')).toBe(true);
    expect(body.nextBefore).toBeGreaterThan(0);
    expect((await fetch(`${portal.server.url}/admin/audit`, { redirect: 'manual' })).status).toBe(302);
    const owner = await portal.loggedInPage('ella@demo.test', { js: false });
    expect((await owner.goto('/admin/audit'))?.status()).toBe(403);
    await owner.context().close();
  });
});

describe('the SIM page history', () => {
  for (const js of [true, false]) {
    it(`shows the newest 50 events and pages to older ones (${js ? 'JS' : 'noJS'})`, async () => {
      const page = await portal.loggedInPage('ella@demo.test', { js });
      await page.goto(`/sims/${simId}`);
      await ready(page, js);
      const history = page.getByRole('table', { name: 'Historik' }).locator('tbody tr');
      expect(await history.count()).toBe(50);
      expect(await history.first().textContent()).toContain(`Märkning ${SIM_EVENTS}`);
      await page.getByRole('link', { name: 'Visa äldre händelser' }).click();
      await page.waitForURL((u) => u.searchParams.has('before'));
      await ready(page, js);
      // The rest: 13 more updates and the seed's own events of this SIM.
      const own = (
        await em().execute<Array<{ n: number }>>(`select count(*)::int as n from sim_event where sim_id = ?`, [simId])
      )[0]!.n;
      await expect.poll(() => history.count()).toBe(own - 50);
      expect(await history.first().textContent()).toContain(`Märkning ${SIM_EVENTS - 50}`);
      expect(await page.getByRole('link', { name: 'Visa äldre händelser' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Visa de senaste händelserna' }).click();
      await page.waitForURL((u) => !u.searchParams.has('before'));
      await expect.poll(() => history.count()).toBe(50);
      await page.context().close();
    });
  }
});
