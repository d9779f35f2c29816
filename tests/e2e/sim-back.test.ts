// A SIM opened from a narrowed list comes back to it (issue 41, finding 7): "< Backa" on the SIM's page (and on its
// deactivation's confirm page, back to the SIM) keeps the search and the page, after a save too, and a deactivation
// lands on the same list, not the whole fleet; JS on and off. On the SIM's page "Avaktivera" stands apart from "Spara"
// at the far end, outlined, not a second button of the same weight.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { MOBILE } from '#tests/helpers/browser.ts';
import { activatedSims } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946595');
/** A word no other attempt uses: a retried test seeds anew and must not find the first attempt's SIMs. */
let attempt = 0;
const unique = (word: string) => `${word}${'abcdefghij'[attempt++ % 10]}`;

/** SIMs of a mark, newest first (as /sims lists them). */
const seed = (mark: string, n: number) => activatedSims(portal.server.services, 'anna@demo.test', mark, n, newIccid);

const backOf = async (page: Page) =>
  new URL((await page.getByRole('link', { name: '< Backa' }).getAttribute('href')) ?? '', portal.server.url);
const statusOf = async (id: number) => (await portal.server.services.orm.em.fork().findOneOrFail(Sim, id)).status;

describe('a SIM and the list it came from', () => {
  for (const js of [true, false])
    it(`"< Backa", a save and a deactivation keep the search (JS ${js ? 'on' : 'off'})`, async () => {
      const mark = unique(js ? 'Återvägmedjs' : 'Återvägutanjs');
      const sims = await seed(mark, 3);
      const page = await portal.loggedInPage('anna@demo.test', { js });
      await page.goto(`/sims?q=${mark}`);
      if (js) await page.locator('form[data-bulk-ready]').waitFor();
      await page.getByRole('link', { name: `Redigera SIM-kort ${sims[1]?.iccid}` }).click();
      await page.waitForURL((u) => u.pathname === `/sims/${sims[1]?.id}`);
      await expect.poll(async () => (await backOf(page)).pathname).toBe('/sims');
      expect((await backOf(page)).searchParams.get('q')).toBe(mark);

      // A save comes back to the same page, still remembering the list.
      await page.getByLabel('Fakturamärkning').fill(`${mark} ändrad`);
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.locator('.toast', { hasText: 'SIM-kortet är sparat' }).waitFor();
      await expect.poll(async () => (await backOf(page)).searchParams.get('q')).toBe(mark);

      // "Avaktivera" apart from "Spara": at the far end of their row, outlined (no fill).
      // (Read in one go in the page: with JS the form is made anew after the save.)
      const deactivate = page.getByRole('link', { name: 'Avaktivera' });
      // Polled: the revalidation after the save may swap the row under the read (no "Spara" in it for a moment).
      const apart = () =>
        deactivate.evaluate((a) => {
          const save = a.parentElement?.querySelector('button[type="submit"]')?.getBoundingClientRect();
          const box = a.getBoundingClientRect();
          return { gap: save ? box.left - save.right : null, fill: getComputedStyle(a).backgroundColor };
        });
      await expect.poll(async () => ((await apart()).gap ?? 0) > 100).toBe(true);
      expect((await apart()).fill).toBe('rgba(0, 0, 0, 0)');

      await deactivate.click();
      if (js) {
        await page.getByRole('dialog').getByRole('button', { name: 'Fortsätt' }).click();
      } else {
        await page.waitForURL((u) => u.pathname === `/sims/${sims[1]?.id}/deactivate`);
        // Its "< Backa" is the SIM, which still knows the list.
        const toSim = await backOf(page);
        expect(toSim.pathname).toBe(`/sims/${sims[1]?.id}`);
        expect(new URLSearchParams(toSim.searchParams.get('list') ?? '').get('q')).toBe(mark);
        await page.getByRole('button', { name: 'Fortsätt' }).click();
      }
      // The same list, without the SIM: the search kept.
      await page.waitForURL((u) => u.pathname === '/sims' && u.searchParams.get('q') === mark);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      expect(await statusOf(sims[1]?.id ?? 0)).toBe('deactivated');
      await page.context().close();
    });

  it('the second page of a search is where "< Backa" goes, on a phone too', async () => {
    const mark = unique('Återvägsida');
    const sims = await seed(mark, 52);
    const page = await portal.loggedInPage('anna@demo.test', { js: true, width: MOBILE.width });
    await page.goto(`/sims?q=${mark}&page=2`);
    await page.locator('form[data-bulk-ready]').waitFor();
    await page.locator('tbody a.sims-open').first().click();
    await page.waitForURL((u) => u.pathname === `/sims/${sims[50]?.id}`);
    await page.getByRole('link', { name: '< Backa' }).click();
    await page.waitForURL((u) => u.pathname === '/sims' && u.searchParams.get('page') === '2');
    expect(new URL(page.url()).searchParams.get('q')).toBe(mark);
    await page.context().close();
  });
});
