// Long: the paused state on the SIM page and on /sims is one feature, tested through the same seeded company.
// The paused state's screens (issue 40) in a real Chromium, JS on and off, at 1280 and 390 px: the SIM page pauses
// and resumes a SIM by a plain form post (with JS without a full reload), shows the badge, "Pausad sedan … av …" and
// the history's rows; a rule's pause names the rule; a viewer sees the state without the buttons. /sims shows the
// badge on a paused row, narrows the list by state (kept in the address, the export and the pager), and pauses and
// resumes the ticked SIMs and every SIM of a search. Axe at 0 with JS, no sideways scroll, screenshots to look at.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { pauseSims } from '#server/sims/pause.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { callerFor } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946591');

const activation = { dataLimit: 1000, callAndSms: false, roaming: false, invoiceLineNote: '' };

const anna = () => callerFor(portal.server.services, 'anna@demo.test');

/** A new SIM of the demo company with this mark. */
async function simWith(mark: string): Promise<number> {
  const { id } = await (await anna()).sim.activate({ ...activation, invoiceLineMark: mark, iccid: newIccid() });
  return id;
}

const statusOf = async (id: number) => (await (await anna()).sim.byId({ id })).status;

async function noSidewaysScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner ?? 0);
}

/** The words of the history's newest row: what happened, and who. */
const newestHistory = async (page: Page) =>
  (await page.locator('table.history tbody tr').first().locator('td').allInnerTexts()).slice(1);

let demoId = 0;

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  demoId = demo.id;
  e.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: demo, role: 'viewer' });
  await e.flush();
});

describe("the SIM page's pause", () => {
  for (const [i, v] of variants.entries()) {
    const theme = i % 2 === 0 ? 'dark' : 'light';
    it(`pauses and resumes the SIM, with the badge and who paused it (${v.tag}, ${theme})`, async () => {
      const id = await simWith(`Paus ${v.tag}`);
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme,
      });
      const page = await ctx.newPage();
      await page.goto(`/sims/${id}`);
      await ready(page, v.js);
      const panel = page.getByRole('region', { name: 'Paus' });
      expect(await page.locator('.paused-badge').count()).toBe(0);
      expect(await panel.getByRole('button').allInnerTexts()).toEqual(['Pausa']);
      // With JS the post is Remix's: the page stays the same document (no full reload).
      if (v.js) await page.evaluate(() => Object.assign(window, { samePage: true }));

      await panel.getByRole('button', { name: 'Pausa' }).click();
      await page.locator('.sim-head .paused-badge').waitFor();
      // The toast first: it leaves after 5 s (TOAST_MS), and a loaded machine spends that on the checks below.
      await page.locator('.toast', { hasText: 'SIM-kortet är pausat' }).waitFor();
      await ready(page, v.js);
      expect(await statusOf(id)).toBe('paused');
      if (v.js) expect(await page.evaluate(() => 'samePage' in window)).toBe(true);
      const sim = await (await anna()).sim.byId({ id });
      expect(sim.pausedBy).toEqual({ kind: 'user', name: 'Anna Andersson' });
      const since = `Pausad sedan ${formatDateTime(sim.pausedAt ?? '')} av Anna Andersson`;
      expect(await panel.locator('.sim-pause-since').innerText()).toBe(since);
      expect(await panel.innerText()).toContain('Ett pausat SIM-kort behåller nummer och abonnemang');
      // Icon and word: the badge's drawing is decoration, its word says it.
      const badge = page.locator('.sim-head .paused-badge');
      expect(await badge.innerText()).toBe('Pausad');
      expect(await badge.locator('svg').getAttribute('aria-hidden')).toBe('true');
      expect(await page.locator('.simfacts .paused-badge').innerText()).toBe('Pausad');
      expect(await newestHistory(page)).toEqual(['Pausad', 'Anna Andersson']);
      expect(await panel.getByRole('button').allInnerTexts()).toEqual(['Återuppta']);
      await noSidewaysScroll(page);
      const size = v.width ? '390' : 'desktop';
      await page.screenshot({ path: `test-results/sim-pause-paused-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png` });
      await page.screenshot({
        path: `test-results/sim-pause-paused-full-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png`,
        fullPage: true,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      await panel.getByRole('button', { name: 'Återuppta' }).click();
      await page.waitForFunction(() => !document.querySelector('.sim-head .paused-badge'));
      await ready(page, v.js);
      expect(await statusOf(id)).toBe('active');
      if (v.js) expect(await page.evaluate(() => 'samePage' in window)).toBe(true);
      expect(await newestHistory(page)).toEqual(['Återupptagen', 'Anna Andersson']);
      expect(await panel.getByRole('button').allInnerTexts()).toEqual(['Pausa']);
      expect(await panel.locator('.sim-pause-since').count()).toBe(0);
      await noSidewaysScroll(page);
      await page.screenshot({ path: `test-results/sim-pause-active-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png` });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await ctx.close();
    });
  }

  it('says so when the SIM was paused meanwhile (another tab), and shows it paused', async () => {
    const id = await simWith('Paus i annan flik');
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto(`/sims/${id}`);
    await (await anna()).sim.pause({ id });
    await page.getByRole('region', { name: 'Paus' }).getByRole('button', { name: 'Pausa' }).click();
    await page.getByRole('status').filter({ hasText: 'SIM-kortet är redan pausat.' }).waitFor();
    expect(await page.locator('.sim-head .paused-badge').count()).toBe(1);
    expect(await statusOf(id)).toBe('paused');
    await page.context().close();
  });

  it("names a rule's pause, and a viewer sees the state without the buttons", async () => {
    const id = await simWith('Pausad av regel');
    await pauseSims(em(), { companyId: demoId, userId: null, rule: { id: 1, name: 'Över 90 %' } }, [id]);
    for (const width of [undefined, 390]) {
      const vera = await portal.loggedInPage('vera@demo.test', { js: true, width });
      await vera.goto(`/sims/${id}`);
      await ready(vera, true);
      const panel = vera.getByRole('region', { name: 'Paus' });
      expect(await vera.locator('.sim-head .paused-badge').innerText()).toBe('Pausad');
      expect(await panel.locator('.sim-pause-since').innerText()).toMatch(/^Pausad sedan .+ av regeln ”Över 90 %”$/);
      expect(await panel.getByRole('button').count()).toBe(0);
      expect(await vera.getByRole('button', { name: 'Återuppta' }).count()).toBe(0);
      expect(await newestHistory(vera)).toEqual(['Pausad av regeln ”Över 90 %”', 'regeln ”Över 90 %”']);
      await noSidewaysScroll(vera);
      await vera.screenshot({
        path: `test-results/sim-pause-viewer-${width ? '390' : 'desktop'}.png`,
        fullPage: true,
      });
      expect(await axeViolations(vera)).toEqual([]);
      await vera.context().close();
    }
    // An active SIM: no panel at all for a viewer (nothing to do, nothing to say).
    const active = await simWith('Aktiv för visare');
    const vera = await portal.loggedInPage('vera@demo.test', { js: false, width: 390 });
    await vera.goto(`/sims/${active}`);
    expect(await vera.getByRole('region', { name: 'Paus' }).count()).toBe(0);
    expect(await vera.getByRole('button', { name: 'Pausa' }).count()).toBe(0);
    await vera.context().close();
  });
});

describe('/sims with paused SIMs', () => {
  const MARK = 'Flotta';
  let ids: number[] = [];
  beforeAll(async () => {
    ids = [];
    for (let n = 1; n <= 6; n++) ids.push(await simWith(`${MARK} ${n}`));
    // The 2nd and the 5th paused.
    await (await anna()).sim.bulkPause({ ids: [ids[1] ?? 0, ids[4] ?? 0] });
  });

  for (const [i, v] of variants.entries()) {
    const theme = i % 2 === 0 ? 'dark' : 'light';
    it(`shows the paused rows' badge and narrows the list by state, kept by the export and the sort (${v.tag}, ${theme})`, async () => {
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme,
      });
      const page = await ctx.newPage();
      await page.goto(`/sims?q=${MARK}`);
      await ready(page, v.js);
      expect(await page.locator('tbody tr').count()).toBe(6);
      const paused = page.locator('tbody tr', { has: page.locator('.paused-badge') });
      expect(await paused.count()).toBe(2);
      for (const row of await paused.all()) {
        expect(await row.locator('.paused-badge').innerText()).toBe('Pausad');
        const href = (await row.locator('a.sims-open').getAttribute('href')) ?? '';
        expect([`/sims/${ids[1]}`, `/sims/${ids[4]}`]).toContain(new URL(href, portal.server.url).pathname);
      }
      await noSidewaysScroll(page);
      const size = v.width ? '390' : 'desktop';
      await page.screenshot({ path: `test-results/sim-pause-list-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png` });
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      const select = page.locator('select[name=status]');
      expect(await select.locator('option').allInnerTexts()).toEqual([
        'Aktiva och pausade',
        'Bara aktiva',
        'Bara pausade',
      ]);
      if (v.width) {
        // A phone shows the view's controls only for a view other than the default: the address chooses.
        expect(await select.isVisible()).toBe(false);
        await page.goto(`/sims?q=${MARK}&status=paused`);
      } else {
        await select.selectOption('paused');
        if (!v.js) await page.getByRole('button', { name: 'Sök', exact: true }).click();
      }
      await page.waitForURL((u) => u.searchParams.get('status') === 'paused' && u.searchParams.get('q') === MARK);
      await ready(page, v.js);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      expect(await page.locator('tbody tr .paused-badge').count()).toBe(2);
      expect(await page.locator('select[name=status]').inputValue()).toBe('paused');
      expect(await page.locator('select[name=status]').isVisible()).toBe(true);
      for (const link of await page.locator('.sims-export a[href*="/export"]').all())
        expect(new URL((await link.getAttribute('href')) ?? '', portal.server.url).searchParams.get('status')).toBe(
          'paused',
        );
      const sort = page.getByRole('columnheader').getByRole('link').first();
      expect(new URL((await sort.getAttribute('href')) ?? '', portal.server.url).searchParams.get('status')).toBe(
        'paused',
      );
      // The export's file has the paused SIMs only.
      const csv = await page.request.get((await page.locator('.sims-export a').first().getAttribute('href')) ?? '');
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).trim().split(/\r?\n/);
      expect(lines).toHaveLength(3);
      await noSidewaysScroll(page);
      await page.screenshot({
        path: `test-results/sim-pause-list-paused-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png`,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      // Only the active ones.
      await page.goto(`/sims?q=${MARK}&status=active`);
      await ready(page, v.js);
      expect(await page.locator('tbody tr').count()).toBe(4);
      expect(await page.locator('tbody tr .paused-badge').count()).toBe(0);
      await ctx.close();
    });
  }

  it('keeps the state on the pager', async () => {
    // More paused SIMs than a page.
    const caller = await anna();
    const many: number[] = [];
    for (let n = 0; n < 52; n++) many.push(await simWith(`Sida ${n}`));
    await caller.sim.bulkPause({ ids: many });
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto('/sims?status=paused');
    const next = page.getByRole('link', { name: 'Nästa' });
    expect(new URL((await next.getAttribute('href')) ?? '', portal.server.url).searchParams.get('status')).toBe(
      'paused',
    );
    await next.click();
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    expect(await page.locator('select[name=status]').inputValue()).toBe('paused');
    const rows = await page.locator('tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(await page.locator('tbody tr .paused-badge').count()).toBe(rows);
    await caller.sim.bulkResume({ ids: many });
    await page.context().close();
  });
});

describe('pause and resume on the ticked SIMs of /sims', () => {
  for (const [i, v] of variants.entries()) {
    const theme = i % 2 === 0 ? 'light' : 'dark';
    it(`pauses and resumes the ticked rows (${v.tag}, ${theme})`, async () => {
      const mark = `Bulkpaus ${v.tag}`;
      const ids = [await simWith(`${mark} 1`), await simWith(`${mark} 2`), await simWith(`${mark} 3`)];
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme,
      });
      const page = await ctx.newPage();
      await page.goto(`/sims?q=${encodeURIComponent(mark)}`);
      await ready(page, v.js);
      if (v.js) await page.locator('form[data-bulk-ready]').waitFor();
      const box = (n: number) => page.locator(`input[name=id][value="${ids[n]}"]`);
      await box(0).check();
      await box(2).check();
      // A toolbar with JS (arrows between its buttons), a group of buttons without.
      const toolbar = page.getByRole(v.js ? 'toolbar' : 'group', { name: 'Markerade SIM-kort' });
      await noSidewaysScroll(page);
      await page.screenshot({
        path: `test-results/sim-pause-bulk-${v.js ? 'js' : 'nojs'}-${theme}-${v.width ? '390' : 'desktop'}.png`,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await toolbar.getByRole('button', { name: 'Pausa markerade SIM-kort' }).click();
      await expect.poll(() => statusOf(ids[0] ?? 0)).toBe('paused');
      await page.waitForURL((u) => u.searchParams.get('q') === mark);
      await ready(page, v.js);
      expect(await statusOf(ids[1] ?? 0)).toBe('active');
      expect(await statusOf(ids[2] ?? 0)).toBe('paused');
      await expect.poll(() => page.locator('tbody tr .paused-badge').count()).toBe(2);
      // The toast counts them.
      await page.locator('.toast', { hasText: '2 SIM-kort pausade' }).waitFor();

      // The paused and one active ticked: resumed are the paused ones, the active one stays as it was.
      await box(0).check();
      await box(1).check();
      await page.getByRole('button', { name: 'Återuppta markerade SIM-kort' }).click();
      await expect.poll(() => statusOf(ids[0] ?? 0)).toBe('active');
      await ready(page, v.js);
      expect(await statusOf(ids[1] ?? 0)).toBe('active');
      expect(await statusOf(ids[2] ?? 0)).toBe('paused');
      await page.locator('.toast', { hasText: '1 SIM-kort återupptagna' }).waitFor();
      await expect.poll(() => page.locator('tbody tr .paused-badge').count()).toBe(1);
      await ctx.close();
    });
  }

  it('pauses and resumes every SIM of a search ("all that match", without JS)', async () => {
    const e = em();
    // 60 SIMs, more than a page.
    await e.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '8946592' || lpad(g::text, 13, '0'), ?,
              (select id from rate_plan where not is_legacy order by id limit 1),
              'Matchrad ' || g, '', 'active', now() - (g || ' days')::interval
         from generate_series(1, 60) g`,
      [demoId],
    );
    const caller = await anna();
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto('/sims?q=Matchrad&all=matching');
    await page.getByRole('button', { name: 'Pausa markerade SIM-kort' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'Matchrad' && !u.searchParams.has('all'));
    expect((await caller.sim.page({ q: 'Matchrad', status: 'paused', limit: 1 })).total).toBe(60);
    expect((await caller.sim.page({ q: 'Matchrad', status: 'active', limit: 1 })).total).toBe(0);
    await page.goto('/sims?q=Matchrad&all=matching');
    await page.getByRole('button', { name: 'Återuppta markerade SIM-kort' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'Matchrad' && !u.searchParams.has('all'));
    expect((await caller.sim.page({ q: 'Matchrad', status: 'paused', limit: 1 })).total).toBe(0);
    await page.context().close();
  });

  for (const js of [true, false])
    it(`"all that match" under a tag and a state takes those SIMs only (${js ? 'JS' : 'without JS'})`, async () => {
      const e = em();
      const mark = js ? 'Kylrad' : 'Frysrad';
      const tag = js ? 'Kylrum' : 'Frysrum';
      // 60 SIMs of the same text, 55 of them tagged: more than a page, and 5 the filter leaves out.
      await e.execute(
        `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
         select '8946593' || ? || lpad(g::text, 12, '0'), ?,
                (select id from rate_plan where not is_legacy order by id limit 1),
                ? || ' ' || g, '', 'active', now() - (g || ' days')::interval
           from generate_series(1, 60) g`,
        [js ? '1' : '2', demoId, mark],
      );
      await e.execute(
        `insert into sim_tag (company_id, sim_id, tag)
         select company_id, id, ? from sim where company_id = ? and invoice_line_mark like ? || ' %'
          order by id limit 55`,
        [tag, demoId, mark],
      );
      const caller = await anna();
      const count = async (status: 'active' | 'paused', withTag: boolean) =>
        (await caller.sim.page({ q: mark, status, tag: withTag ? [tag] : undefined, limit: 1 })).total;
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js, viewport: DESKTOP, cookie });
      const page = await ctx.newPage();
      const pickAll = async (address: string, n: number) => {
        await page.goto(address);
        await ready(page, js);
        await page.getByRole('button', { name: `Markera alla ${n} som matchar sökningen` }).click();
        if (!js) await page.waitForURL((u) => u.searchParams.get('all') === 'matching');
        await page.getByText(`Alla ${n} SIM-kort som matchar sökningen är markerade.`).waitFor();
      };

      // Every SIM with the tag paused; the 5 without it stay active.
      await pickAll(`/sims?tag=${tag}`, 55);
      await page.getByRole('button', { name: 'Pausa markerade SIM-kort' }).click();
      await expect.poll(() => count('paused', true)).toBe(55);
      await ready(page, js);
      expect(await count('active', false)).toBe(5);

      // The deactivation's confirmation names the narrowing and lists the same SIMs (nothing deactivated here).
      await pickAll(`/sims?q=${mark}&tag=${tag}&status=paused`, 55);
      await page.getByRole('button', { name: 'Avaktivera markerade' }).click();
      const words = `Alla SIM-kort som matchar ”${mark}”, med taggen ”${tag}”, som är pausade.`;
      if (js) {
        const dialog = page.getByRole('dialog');
        await dialog.getByText(words).waitFor();
        await dialog.getByRole('button', { name: 'Avaktivera 55 SIM-kort' }).waitFor();
        await dialog.getByRole('button', { name: 'Avbryt' }).click();
      } else {
        await page.waitForURL((u) => u.pathname === '/sims/deactivate' && u.searchParams.get('matching') === '1');
        await page.getByText(words).waitFor();
        await page.getByRole('button', { name: 'Avaktivera 55 SIM-kort' }).waitFor();
      }

      // Resumed under the state's filter: the paused ones of the search, every one of them.
      await pickAll(`/sims?q=${mark}&status=paused`, 55);
      await page.getByRole('button', { name: 'Återuppta markerade SIM-kort' }).click();
      await expect.poll(() => count('paused', false)).toBe(0);
      await ready(page, js);

      // Tagged in one step under the tag's filter: the 55, not the 5.
      await pickAll(`/sims?tag=${tag}`, 55);
      await page.locator('#bulk-tag').fill('Kontrollerad');
      await page.getByRole('button', { name: 'Lägg till tagg' }).click();
      await expect
        .poll(async () => (await caller.sim.page({ q: mark, tag: ['Kontrollerad'], limit: 1 })).total)
        .toBe(55);
      await ctx.close();
    });
});
