// /sims by usage in a real Chromium (issue 39, docs/decisions/035): the columns "Förbrukning i månaden" and
// "Senast sedd", the filters and sorts through the view's selects (JS on: at once; off: the button) and the
// columns' header links, all in the address, kept by the pager, the search and the export links; at 1280 and 390 px
// (a phone shows the usage, or last seen when the view is about it, and never scrolls sideways), both themes with
// axe at 0 and a screenshot each.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company } from '#server/db/entities.ts';
import { monthOf } from '#server/sims/views.ts';
import { ensurePartitions, partitionOf } from '#server/usage/partitions.ts';
import { axeViolations, DESKTOP, MOBILE } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { clear } from '#tests/helpers/usage.ts';

const portal = useScreens();
const MEMBER = 'anna@demo.test';

/**
 * 60 SIMs of Demo AB beside its own: SIM g uses g × 20 MB this month (g % 10 = 0: none), on plans of 500 MB to
 * several GB, so the heaviest pass 80 % of theirs; g % 4 = 1 silent for two days, g % 7 = 0 never seen.
 */
beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  await clear(em);
  await ensurePartitions(em, [partitionOf('usage_month', monthOf(new Date()))]);
  await em.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select '8946556' || lpad(g::text, 13, '0'), ?,
            (select id from rate_plan where not is_legacy order by data_limit, id offset (g % 3) limit 1),
            'Förbrukning ' || g, '', 'active', now() - (g || ' days')::interval
       from generate_series(1, 60) g`,
    [demo.id],
  );
  await em.execute(
    `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records)
     select s.company_id, s.id, ?::date, g * 4000000, g * 16000000, 4
       from sim s cross join lateral (select substr(s.iccid, 8)::int as g) x
      where s.iccid like '8946556%' and g % 10 <> 0`,
    [monthOf(new Date())],
  );
  await em.execute(
    `insert into usage_last_seen (company_id, sim_id, at, network, country)
     select s.company_id, s.id, now() - case when g % 4 = 1 then interval '2 days' else g * interval '1 minute' end, '24001', 'SE'
       from sim s cross join lateral (select substr(s.iccid, 8)::int as g) x
      where s.iccid like '8946556%' and g % 7 <> 0`,
  );
});

async function open(path: string, o: { js?: boolean; width?: number; theme?: 'dark' | 'light' } = {}) {
  const page = await portal.loggedInPage(MEMBER, { js: o.js, width: o.width });
  if (o.theme) await page.context().addCookies([{ name: 'theme', value: o.theme, url: portal.server.url }]);
  await page.goto(path);
  if (o.js !== false) await page.locator('form[data-bulk-ready]').waitFor();
  return page;
}

const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
/** The visible text of a column (by its header's class) in each row. */
const cells = (page: Page, nthLast: number) => page.locator(`tbody tr td:nth-last-child(${nthLast})`).allInnerTexts();
const percents = async (page: Page) =>
  (await page.locator('tbody td:nth-last-child(5) small').allInnerTexts()).map((t) => Number.parseInt(t, 10));

describe('/sims by usage', () => {
  for (const js of [true, false])
    it(`filters over 80 % and silent SIMs through the selects, sorts by a header, keeps the view (JS ${js ? 'on' : 'off'})`, async () => {
      const page = await open('/sims', { js, width: DESKTOP.width });
      expect(await page.locator('thead th.sims-usage').count()).toBe(1);
      await page.locator('select[name="filter"]').selectOption('over80');
      if (!js) await page.locator('.sims-view button[type="submit"]').click();
      await page.waitForURL(/filter=over80/);
      expect(params(page)).toMatchObject({ filter: 'over80' });
      await expect.poll(async () => (await percents(page)).length).toBeGreaterThan(0);
      const over = await percents(page);
      expect(over.length).toBeGreaterThan(0);
      expect(over.every((p) => p > 80)).toBe(true);
      expect(await page.locator('thead th.sims-usage').getAttribute('aria-sort')).toBe('descending');
      // The export follows the view; "all that match" is not offered under a usage filter (its figures move).
      expect(await page.locator('.sims-export a').first().getAttribute('href')).toContain('filter=over80');
      expect(await page.locator('.sims-select').count()).toBe(0);

      await page.locator('select[name="filter"]').selectOption('silent24h');
      if (!js) await page.locator('.sims-view button[type="submit"]').click();
      await page.waitForURL(/filter=silent24h/);
      await expect.poll(async () => (await cells(page, 4)).length).toBe(13);
      const seen = await cells(page, 4);
      expect(seen.length).toBe(13); // g % 4 = 1 of 1-60, but 21 and 49 (never seen)
      expect(seen.every((s) => s === '2 dagar sedan')).toBe(true);

      // A header sorts; clicked again, the other way; the search keeps the view.
      await page.goto('/sims');
      await page.locator('thead th.sims-usage a').click();
      await page.waitForURL(/sort=usage-desc/);
      await expect.poll(async () => (await cells(page, 5))[0]).toMatch(/^1,2 GB/);
      await page.locator('thead th.sims-usage a').click();
      await page.waitForURL(/sort=usage-asc/);
      await expect.poll(async () => (await cells(page, 5))[0]).toMatch(/^20 MB/);
      // SIMs without usage this month come last, either way.
      await page.locator('#q').fill('Förbrukning');
      if (js) await page.waitForURL(/q=F/);
      else await page.locator('.sims-search button[type="submit"]').first().click();
      await page.waitForURL(/q=F/);
      expect(params(page)).toMatchObject({ q: 'Förbrukning', sort: 'usage-asc' });
      const pager = page.locator('.sims-pager a[rel="next"]');
      expect(await pager.getAttribute('href')).toContain('sort=usage-asc');
      await pager.click();
      await page.waitForURL(/page=2/);
      await expect.poll(async () => (await cells(page, 5)).at(-1)).toBe('–');
      await page.close();
    });

  for (const width of [DESKTOP.width, MOBILE.width])
    for (const theme of ['dark', 'light'] as const)
      it(`fits ${width} px in the ${theme} theme: no sideways scroll, axe at 0 (screenshot)`, async () => {
        const page = await open('/sims?sort=usage-desc', { width, theme });
        await page.screenshot({ path: `test-results/sims-usage-${width}-${theme}.png` });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await page.locator('thead th.sims-usage').isVisible()).toBe(true);
        expect(await page.locator('thead th.sims-seen').isVisible()).toBe(width === DESKTOP.width);
        expect(await axeViolations(page)).toEqual([]);
        await page.goto('/sims?filter=silent7d');
        await page.goto('/sims?filter=never');
        await page.screenshot({ path: `test-results/sims-never-${width}-${theme}.png` });
        expect(await page.locator('thead th.sims-seen').isVisible()).toBe(true);
        expect(await page.locator('thead th.sims-usage').isVisible()).toBe(width === DESKTOP.width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      });
});
