// The SIM page about the SIM (issue 39) in a real Chromium, JS on and off, at 1280 and 390 px, in both themes:
// status, plan, activated and last seen; this month against the plan as a meter with its figure; the chart of the
// last 30 days and, by its link, 90 (a URL parameter, so without JS too) with its numbers as a table; the latest
// records; how fresh the data is; the edit form still there; axe at 0; screenshots to look at. Usage seeded
// through ingestUsage.
import { beforeAll, describe, expect, it } from 'vitest';
import { swedishDay } from '#domain/usage/time.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { callerFor } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { earlierToday } from '#tests/helpers/usage.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946588');
const DAY = 86_400_000;

let simId: number;
let quietId: number;

beforeAll(async () => {
  const anna = await callerFor(portal.server.services, 'anna@demo.test');
  const iccid = newIccid();
  const activation = {
    dataLimit: 1000,
    callAndSms: false,
    roaming: false,
    invoiceLineMark: 'Mätare',
    invoiceLineNote: '',
  };
  simId = (await anna.sim.activate({ ...activation, iccid })).id;
  quietId = (await anna.sim.activate({ ...activation, iccid: newIccid() })).id;
  // 850 MB this month (85 % of 1 GB): most of it an hour ago, the rest spread over the month's days so far; and
  // traffic 40 to 60 days back, which only the 90 days show.
  const now = Date.now();
  const today = swedishDay(new Date(now));
  dayOfMonth = Number(today.slice(8, 10));
  const records = [];
  const rec = (id: string, start: number, bytes: number) => ({
    recordId: id,
    iccid,
    start: new Date(start).toISOString(),
    end: new Date(Math.min(start + 15 * 60_000, now)).toISOString(),
    bytesUp: Math.round(bytes / 10),
    bytesDown: bytes - Math.round(bytes / 10),
    network: '240-01',
    country: 'SE',
    rat: 'LTE',
  });
  // Earlier days of this month: 10 MB each (not before the month's first day).
  for (let d = 1; d < dayOfMonth; d++) records.push(rec(`m-${d}`, now - d * DAY, 10_000_000));
  const earlier = (dayOfMonth - 1) * 10_000_000;
  // The latest record today, also in the first hour after midnight ("Data till och med 00:05", not yesterday's).
  records.push(rec('now', earlierToday(now, 60 * 60_000), 850_000_000 - earlier));
  for (let d = 40; d <= 60; d += 5) records.push(rec(`old-${d}`, now - d * DAY, 30_000_000));
  const counts = await ingestUsage(em(), 'e2e', records);
  expect(counts).toMatchObject({ taken: records.length, refused: [] });
});

/** Today's day of the month in Sweden (set before the tests): the seeded sessions' number depends on it. */
let dayOfMonth = 0;

describe('the SIM page with usage', () => {
  for (const v of variants) {
    it(`shows the SIM, its month, its days and its sessions (${v.tag})`, async () => {
      for (const theme of ['dark', 'light'] as const) {
        const cookie = await portal.server.sessionCookie('anna@demo.test');
        const ctx = await newContext(portal.browser, {
          baseURL: portal.server.url,
          js: v.js,
          viewport: v.width ? MOBILE : DESKTOP,
          cookie,
          theme,
        });
        const page = await ctx.newPage();
        await page.goto(`/sims/${simId}`);
        await ready(page, v.js);
        const about = page.getByRole('region', { name: 'Om SIM-kortet' });
        await about.getByText('Aktivt').waitFor();
        expect(await about.getByText('Data 1 GB').count()).toBe(1);
        expect(await about.getByText('240-01 · Sverige').count()).toBe(1);

        const usage = page.getByRole('region', { name: 'Förbrukning' });
        expect(await usage.getByText('850 MB av 1 GB').count()).toBe(1);
        expect(await usage.getByText('(85 % av datamängden)').count()).toBe(1);
        const meter = usage.getByRole('meter', { name: 'Denna månad' });
        expect(await meter.getAttribute('value')).toBe('850000000');
        expect(await usage.getByText(/^Data till och med \d{2}:\d{2}$/).count()).toBe(1);

        const chart30 = usage.getByRole('img', { name: /Förbrukning per dag, senaste 30 dagarna/ });
        await chart30.waitFor();
        const size = v.width ? '390' : 'desktop';
        const shot = `${v.js ? 'js' : 'nojs'}-${theme}-${size}`;
        await page.screenshot({ path: `test-results/sim-usage-top-${shot}.png` });
        expect(await usage.locator('.daychart-table tbody tr').count()).toBe(30);
        // The numbers as a table behind a summary, closed until asked for.
        expect(await usage.locator('.daychart-table table').isVisible()).toBe(false);
        await usage.getByText('Visa som tabell').click();
        expect(await usage.locator('.daychart-table table').isVisible()).toBe(true);

        await usage.getByRole('link', { name: 'Senaste 90 dagarna' }).click();
        await page.waitForURL((u) => u.searchParams.get('days') === '90');
        await ready(page, v.js);
        const again = page.getByRole('region', { name: 'Förbrukning' });
        await again.getByRole('img', { name: /senaste 90 dagarna/ }).waitFor();
        expect(await again.locator('.daychart-table tbody tr').count()).toBe(90);
        expect(await again.getByRole('link', { name: 'Senaste 90 dagarna' }).getAttribute('aria-current')).toBe('page');
        // 40 to 60 days back: in the 90 days only.
        expect(await again.locator('.daychart-bar').count()).toBeGreaterThan(5);

        const sessions = page.getByRole('table', { name: 'Senaste sessionerna' });
        // One a day of the month so far, the latest, and five 40 to 60 days back; at most 20 (6 on the 1st).
        expect(await sessions.locator('tbody tr').count()).toBe(Math.min(20, dayOfMonth + 5));
        const first = await sessions.locator('tbody tr').first().innerText();
        expect(first).toContain('240-01');
        expect(first).toContain('Sverige · LTE');

        // The form is as it was.
        expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Mätare');
        expect(await page.getByRole('button', { name: 'Spara' }).count()).toBe(1);
        const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
        await page.screenshot({
          path: `test-results/sim-usage-${shot}.png`,
          fullPage: true,
        });
        if (v.js) expect(await axeViolations(page)).toEqual([]);
        await ctx.close();
      }
    });
  }

  it('shows a SIM without usage as never seen, with zero against its plan', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false, width: 390 });
    await page.goto(`/sims/${quietId}`);
    await page.getByText('Aldrig sedd').waitFor();
    expect(await page.getByText('0 B av 1 GB').count()).toBe(1);
    expect(await page.getByText('Inga sessioner än.').count()).toBe(1);
    expect(await page.locator('.daychart-bar').count()).toBe(0);
    await page.screenshot({ path: 'test-results/sim-usage-quiet-390.png', fullPage: true });
    await page.context().close();
  });
});
