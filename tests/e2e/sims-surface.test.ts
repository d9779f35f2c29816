// /sims as a work surface in a real Chromium: compact rows (15 or more in a 1280x800 screen), the plan and the
// activation day on a wide screen only, 44 px targets and rows that open their SIM when tapped on a phone, the
// selection toolbar shown by CSS alone once a box is ticked (JS on and off) without moving a row, no layout shift
// while JavaScript arrives, and axe at both widths in both themes.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE } from '#tests/helpers/browser.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const MEMBER = 'anna@demo.test';
const VIEWER = 'vera.yta@demo.test';

/** 55 SIMs of Demo AB (with its own 4, two pages), each on one of the current plans, one a day older. */
beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  await em.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select '8946555' || lpad(g::text, 13, '0'), ?,
            (select id from rate_plan where not is_legacy order by id offset (g % 5) limit 1),
            'Yta ' || g, '', 'active', now() - (g || ' days')::interval
       from generate_series(1, 55) g`,
    [demo.id],
  );
  em.create(User, { name: 'Vera Yta', email: VIEWER, company: demo, role: 'viewer' });
  await em.flush();
});

/** A seeded SIM: its id, ICCID, its plan's description and its activation day in Stockholm. */
async function seeded(n: number) {
  const rows = await portal.server.services.orm.em
    .fork()
    .execute<Array<{ id: number; iccid: string; description: string; activated_at: Date }>>(
      `select s.id, s.iccid, r.description, s.activated_at from sim s join rate_plan r on r.id = s.rate_plan_id
        where s.iccid = '8946555' || lpad(?::text, 13, '0')`,
      [n],
    );
  const row = rows[0]!;
  const day = new Date(row.activated_at).toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
  return { id: Number(row.id), iccid: row.iccid, plan: row.description, day };
}

async function open(email: string, o: { js?: boolean; width?: number; theme?: 'dark' | 'light' } = {}) {
  const page = await portal.loggedInPage(email, { js: o.js, width: o.width });
  if (o.theme) await page.context().addCookies([{ name: 'theme', value: o.theme, url: portal.server.url }]);
  await page.goto('/sims');
  if (o.js !== false) await page.locator('form[data-bulk-ready]').waitFor();
  return page;
}

/** The row of a SIM (by its link: the last 8 digits of one ICCID may be inside another's). */
const rowOf = (page: Page, id: number) =>
  page.locator('tbody tr').filter({ has: page.locator(`a[href="/sims/${id}"]`) });

/** The rows of the table wholly inside the window as it is scrolled now. */
const rowsInView = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('table.sims tbody tr')].filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= 0 && b.bottom <= window.innerHeight;
      }).length,
  );

/** Every element matching one of the selectors that is smaller than 44x44 px, named with its size. */
const smallTargets = (page: Page, selectors: string[]) =>
  page.evaluate((sels) => {
    const small: string[] = [];
    for (const sel of sels) {
      const found = [...document.querySelectorAll(sel)];
      if (found.length === 0) small.push(`${sel}: none found`);
      for (const e of found) {
        const b = e.getBoundingClientRect();
        if (b.width < 44 || b.height < 44) small.push(`${sel} ${Math.round(b.width)}x${Math.round(b.height)}`);
      }
    }
    return small;
  }, selectors);

needs(describe, 'chromium')('/sims as a work surface', () => {
  for (const js of [true, false]) {
    it(`at 1280x800 shows 15 rows or more, each with its plan and activation day (JS ${js ? 'on' : 'off'})`, async () => {
      const page = await open(MEMBER, { js });
      expect(await page.locator('tbody tr').count()).toBe(50);
      expect(await rowsInView(page)).toBeGreaterThanOrEqual(15);
      const sim = await seeded(3);
      const row = page.getByRole('row').filter({ hasText: sim.iccid });
      const cells = row.getByRole('cell');
      expect(await page.getByRole('columnheader', { name: 'Abonnemang' }).isVisible()).toBe(true);
      expect(await page.getByRole('columnheader', { name: 'Aktiverad' }).isVisible()).toBe(true);
      expect(await cells.filter({ hasText: sim.plan }).first().isVisible()).toBe(true);
      expect(await cells.getByText(sim.day, { exact: true }).isVisible()).toBe(true);
      // The spec's edit link is there on a wide screen, with its words.
      expect(await row.getByRole('link', { name: `Redigera SIM-kort ${sim.iccid}` }).innerText()).toBe('Redigera');
      await page.context().close();
    });
  }

  for (const js of [true, false]) {
    it(`at 390x844: 44 px targets, the first row near the top, no plan or day, and a tapped row opens its SIM (JS ${js ? 'on' : 'off'})`, async () => {
      const page = await open(MEMBER, { js, width: MOBILE.width });
      const sim = await seeded(2);
      const row = rowOf(page, sim.id);
      expect(await page.getByRole('columnheader', { name: 'Abonnemang' }).isVisible()).toBe(false);
      expect(await row.getByText(sim.plan, { exact: true }).isVisible()).toBe(false);
      expect(await row.getByText(sim.day, { exact: true }).isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      // The search, the count and export, and "all that match" leave the first row within 300 px of the header.
      const below = await page.evaluate(() => {
        const header = document.querySelector('header')!.getBoundingClientRect();
        return document.querySelector('table.sims tbody tr')!.getBoundingClientRect().top - header.bottom;
      });
      expect(below).toBeLessThanOrEqual(300);

      await page.getByLabel(`Markera SIM-kort ${sim.iccid}`).check();
      expect(
        await smallTargets(page, [
          'td.select label',
          'th.select button',
          'tbody a.sims-open',
          '.sims-select .btn',
          '.sims-export a',
          '.sims-toolbar button',
          'nav.sims-pager a',
        ]),
      ).toEqual([]);
      await page.getByLabel(`Markera SIM-kort ${sim.iccid}`).uncheck();

      // A tap on the box's cell, beside the box, ticks it and stays.
      const cell = await row.locator('td.select').boundingBox();
      await page.mouse.click(cell!.x + 3, cell!.y + 3);
      await expect.poll(() => page.getByLabel(`Markera SIM-kort ${sim.iccid}`).isChecked()).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/sims');
      // A tap on the mark (no link of its own) opens the SIM.
      const mark = await row.locator('td.mark').boundingBox();
      await page.mouse.click(mark!.x + mark!.width / 2, mark!.y + mark!.height / 2);
      await page.waitForURL((u) => u.pathname === `/sims/${sim.id}`);
      await page.getByText(sim.iccid).first().waitFor();
      await page.context().close();
    });
  }

  it('at 390x844 a viewer’s rows open the SIM too, with no boxes and 44 px links', async () => {
    const page = await open(VIEWER, { width: MOBILE.width });
    const sim = await seeded(4);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.locator('.sims-toolbar').count()).toBe(0);
    expect(await smallTargets(page, ['tbody a.sims-open', 'nav.sims-pager a'])).toEqual([]);
    const iccidCell = await rowOf(page, sim.id).locator('td.iccid').boundingBox();
    await page.mouse.click(iccidCell!.x + 4, iccidCell!.y + iccidCell!.height / 2);
    await page.waitForURL((u) => u.pathname === `/sims/${sim.id}`);
    await page.context().close();
  });

  for (const js of [true, false])
    for (const width of [DESKTOP.width, MOBILE.width])
      it(`the toolbar's "Avaktivera markerade" shows only while a box is ticked, over the page, moving no row (JS ${js ? 'on' : 'off'}, ${width} px)`, async () => {
        const page = await open(MEMBER, { js, width });
        const destructive = page.locator('.sims-toolbar .btn-destructive');
        // In the page from the start (no switch when JS arrives), hidden while nothing is ticked.
        expect(await destructive.count()).toBe(1);
        expect(await destructive.isVisible()).toBe(false);
        const sim = await seeded(5);
        const row = rowOf(page, sim.id);
        const rowTop = async () => (await row.boundingBox())!.y;
        const before = await rowTop();
        await page.getByLabel(`Markera SIM-kort ${sim.iccid}`).check();
        await expect.poll(() => destructive.isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: 'Avaktivera markerade' }).isVisible()).toBe(true);
        if (js) expect(await page.getByText('1 markerad', { exact: true }).isVisible()).toBe(true);
        expect(await rowTop()).toBe(before);
        // Laid over the foot of the screen.
        const bar = (await page.locator('.sims-toolbar').boundingBox())!;
        expect(bar.y + bar.height).toBeLessThanOrEqual(page.viewportSize()!.height);
        expect(bar.y).toBeGreaterThan(page.viewportSize()!.height / 2);
        await page.getByLabel(`Markera SIM-kort ${sim.iccid}`).uncheck();
        await expect.poll(() => destructive.isVisible()).toBe(false);
        expect(await rowTop()).toBe(before);
        await page.context().close();
      });

  for (const viewport of [DESKTOP, MOBILE])
    it(
      `nothing moves while JavaScript arrives over a slow network (CLS 0, ${viewport.width} px)`,
      { timeout: 120_000 },
      async () => {
        const page = await portal.loggedInPage(MEMBER, { width: viewport.width });
        // 400 kbps with 400 ms latency: the page is painted long before its scripts have run.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 400,
          downloadThroughput: 400_000 / 8,
          uploadThroughput: 400_000 / 8,
        });
        await page.goto('/sims', { timeout: 60_000 });
        await page.locator('form[data-bulk-ready]').waitFor({ timeout: 60_000 });
        /** The page's layout shifts so far (the browser's buffered entries), not counting those after an input. */
        const shifts = () =>
          page.evaluate(
            () =>
              new Promise<number[]>((resolve) => {
                const seen: number[] = [];
                const observer = new PerformanceObserver((list) => {
                  for (const e of list.getEntries() as Array<
                    PerformanceEntry & { value: number; hadRecentInput: boolean }
                  >)
                    if (!e.hadRecentInput) seen.push(e.value);
                });
                observer.observe({ type: 'layout-shift', buffered: true });
                // A deliberate quiet period: the buffered entries come to the observer in a task of their own, and
                // when there are none (what the first call shows) no event says so; a frame and 100 ms for them.
                requestAnimationFrame(() =>
                  setTimeout(() => {
                    observer.disconnect();
                    resolve(seen);
                  }, 100),
                );
              }),
          );
        expect(await shifts()).toEqual([]);
        // The measure sees a shift when there is one: a line put above the table moves the rows.
        await page.evaluate(() => {
          const p = document.createElement('p');
          p.textContent = 'Infogad';
          document.querySelector('.sims-tools')!.before(p);
        });
        await expect.poll(async () => (await shifts()).length).toBeGreaterThan(0);
        await page.context().close();
      },
    );

  for (const width of [DESKTOP.width, MOBILE.width])
    for (const theme of ['dark', 'light'] as const)
      it(`passes axe at ${width} px in the ${theme} theme, also with a box ticked`, async () => {
        const page = await open(MEMBER, { width, theme });
        expect(await page.evaluate(() => document.documentElement.dataset.theme ?? 'dark')).toBe(theme);
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('checkbox').nth(2).check();
        await page.getByRole('button', { name: 'Avaktivera markerade' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.context().close();
      });
});
