// Long: the selection, its dialog and its no-JS twin share the SIMs and the page helpers.
// Deactivate many from /sims, the selection: "Markera alla N som matchar sökningen" over more than one
// page (resolved by the server's own list search, at most 1,000), the confirm dialog with JS (count, ICCIDs,
// legacy SIMs refused, Esc and Tab) and its no-JS twin, the confirm page; JS on and off, desktop and 390 px.
// The SIMs are activated through the bulk procedure itself (the caller helper), legacy ones stored directly.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim, SimEvent, User } from '#server/db/entities.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { axeViolations, MOBILE } from '#tests/helpers/browser.ts';
import { callerFor } from '#tests/helpers/caller.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();

// 20-digit ICCIDs unique in this run: a prefix of this file, the time and a counter (never a shorter one).
let counter = 0;
const stamp = Date.now() % 1e8;
const newIccid = () => withCheckDigit(`89469${String(stamp).padStart(8, '0')}${String(counter++).padStart(6, '0')}`);

type Seeded = { id: number; iccid: string };

/** n SIMs of Anna's company under one mark through sim.bulkActivate, and one more on a legacy plan. */
async function seed(mark: string, n: number): Promise<{ current: Seeded[]; legacy: Seeded }> {
  const caller = await callerFor(portal.server.services, 'anna@demo.test');
  const current: Seeded[] = [];
  for (let from = 0; from < n; from += 1000) {
    const iccids = Array.from({ length: Math.min(1000, n - from) }, newIccid);
    const { results, counts } = await caller.sim.bulkActivate({
      iccids,
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: mark,
      invoiceLineNote: '',
      dryRun: false,
    });
    expect(counts.activated).toBe(iccids.length);
    for (const r of results) current.push({ id: r.simId!, iccid: r.iccid });
  }
  const em = portal.server.services.orm.em.fork();
  const anna = await em.findOneOrFail(User, { email: 'anna@demo.test' });
  const ratePlan = await em.findOneOrFail(RatePlan, { isLegacy: true }, { orderBy: { id: 'asc' } });
  const legacy = em.create(Sim, { iccid: newIccid(), company: anna.company, ratePlan, invoiceLineMark: mark });
  await em.flush();
  return { current, legacy: { id: legacy.id, iccid: legacy.iccid } };
}

/** A SIM of another company under the same mark: a search never reaches it. */
async function foreignSim(mark: string): Promise<Seeded> {
  const em = portal.server.services.orm.em.fork();
  const company = em.create(Company, { name: `Bolag ${mark}`, customerNumber: `X-${mark}`, invoiceNote: '' });
  const ratePlan = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const sim = em.create(Sim, { iccid: newIccid(), company, ratePlan, invoiceLineMark: mark });
  await em.flush();
  return { id: sim.id, iccid: sim.iccid };
}

async function statuses(ids: number[]) {
  const em = portal.server.services.orm.em.fork();
  const sims = await em.find(Sim, { id: { $in: ids } });
  const events = await em.count(SimEvent, { sim: { $in: ids }, kind: 'deactivated' });
  const active = sims.filter((s) => s.status === 'active').length;
  return { active, deactivated: sims.length - active, events };
}

async function noSidewaysScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner);
}

const texts = async (page: Page, selector: string) =>
  (await page.locator(selector).allInnerTexts()).map((s) => s.trim()).sort();

for (const js of [true, false]) {
  for (const width of [undefined, MOBILE.width]) {
    const label = `JS ${js ? 'on' : 'off'}, ${width ? `${width} px` : 'desktop'}`;
    describe(`select all matching the search, ${label}`, () => {
      it('ticks every SIM the search finds over two pages, lists them all, and deactivates them (legacy refused)', async () => {
        const mark = `match-${js ? 'js' : 'nojs'}-${width ?? 'wide'}`;
        const { current, legacy } = await seed(mark, 60);
        const foreign = await foreignSim(mark);
        const [bystander] = (await seed(`bystander-${js ? 'js' : 'nojs'}-${width ?? 'wide'}`, 1)).current;
        const shown = (iccid: string) => (width ? `…${iccid.slice(-8)}` : iccid);
        const page = await portal.loggedInPage('anna@demo.test', { js, width });
        page.setDefaultTimeout(60_000);
        await page.goto(`/sims?q=${mark}`);
        if (js) await page.locator('form[data-bulk-ready]').waitFor();
        // One page of 50 (and the header row); the search matches 61.
        expect(await page.getByRole('row').count()).toBe(51);
        await page.getByRole('button', { name: 'Markera alla 61 som matchar sökningen' }).click();
        if (!js) await page.waitForURL((u) => u.searchParams.get('all') === 'matching');
        await page.getByText('Alla 61 SIM-kort som matchar sökningen är markerade.').waitFor();
        await page.getByText('61 markerade', { exact: true }).waitFor();
        const boxes = page.getByRole('checkbox');
        expect(await boxes.count()).toBe(50);
        for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
        if (width) await noSidewaysScroll(page);
        expect(js ? await axeViolations(page) : []).toEqual([]);
        if (js) await page.screenshot({ path: `test-results/bulk-deactivate-selected-${width ?? 'desktop'}.png` });

        await page.getByRole('button', { name: 'Avaktivera markerade' }).click();
        const confirm = js ? page.getByRole('dialog', { name: 'Avaktivera flera SIM-kort' }) : page.locator('body');
        if (js) await confirm.waitFor();
        else {
          await page.waitForURL((u) => u.pathname === '/sims/deactivate' && u.searchParams.get('matching') === '1');
        }
        await confirm.getByText(`Alla SIM-kort som matchar ”${mark}”.`).waitFor();
        await confirm.getByText('60 SIM-kort kommer att avaktiveras').waitFor();
        // Every ICCID of the search, not only the page's 50, as wide as the screen allows.
        const readySelector = `${js ? 'dialog ' : ''}.bulk-list:not(.bulk-refused) li .${width ? 'only' : 'hide'}-mobile`;
        expect(await texts(page, readySelector)).toEqual(current.map((s) => shown(s.iccid)).sort());
        const refused = confirm.locator('.bulk-refused li');
        expect(await refused.count()).toBe(1);
        expect(await refused.innerText()).toContain(shown(legacy.iccid));
        const html = await page.content();
        expect(html).not.toContain(foreign.iccid);
        expect(html).not.toContain(bystander!.iccid);
        if (width) await noSidewaysScroll(page);
        if (js)
          await page.screenshot({ path: `test-results/bulk-deactivate-dialog-matching-${width ?? 'desktop'}.png` });
        expect((await statuses(current.map((s) => s.id))).active).toBe(60);

        await confirm.getByRole('button', { name: 'Avaktivera 60 SIM-kort' }).click();
        await page.getByRole('heading', { name: 'Resultat av avaktiveringen' }).waitFor();
        // Without JS the result page may still be arriving when its heading shows: wait for all of it.
        await page.waitForLoadState('load');
        await expect.poll(() => page.locator('tr[data-outcome]').count()).toBe(61);
        expect(await page.locator('tr[data-outcome="deactivated"]').count()).toBe(60);
        expect(await page.locator('tr[data-outcome="legacy"]').count()).toBe(1);
        expect(await page.locator('tr[data-outcome]').count()).toBe(61);
        expect(await page.locator('tr[data-outcome="legacy"]').innerText()).toContain(shown(legacy.iccid));
        expect(await page.locator('.deactivate-counts').innerText()).toMatch(/Avaktiverat: 60[\s\S]*: 1/);
        if (width) await noSidewaysScroll(page);

        expect(await statuses(current.map((s) => s.id))).toEqual({ active: 0, deactivated: 60, events: 60 });
        expect(await statuses([legacy.id, foreign.id, bystander!.id])).toEqual({
          active: 3,
          deactivated: 0,
          events: 0,
        });
        await page.context().close();
      }, 240_000);
    });
  }
}

// Past 1,000 matches a search's count stops (docs/decisions/019): the page says "fler än 1 000".
it('over 1,000 matching: says so, and takes the first 1,000 (JS: the dialog, cancelled; no JS: the confirm page, confirmed)', async () => {
  const mark = 'cap';
  const { current } = await seed(mark, 1001);
  const ids = current.map((s) => s.id);

  const withJs = await portal.loggedInPage('anna@demo.test', { js: true });
  withJs.setDefaultTimeout(60_000);
  await withJs.goto(`/sims?q=${mark}`);
  await withJs.locator('form[data-bulk-ready]').waitFor();
  await withJs.getByRole('button', { name: /^Markera alla som matchar sökningen \(fler än 1\s000\)$/ }).click();
  await withJs.getByText(/^1\s000 markerade$/).waitFor();
  await withJs
    .getByText(/högst 1\s000 kan avaktiveras åt gången/)
    .first()
    .waitFor();
  await withJs.getByRole('button', { name: 'Avaktivera markerade' }).click();
  const dialog = withJs.getByRole('dialog', { name: 'Avaktivera flera SIM-kort' });
  await dialog.getByText(/^Fler än 1\s000 SIM-kort matchar, men högst 1\s000 kan avaktiveras åt gången/).waitFor();
  // The newest 1,000 of the list: the legacy SIM (stored last) among them, so 999 to deactivate.
  await dialog.getByText('999 SIM-kort kommer att avaktiveras').waitFor();
  expect(await dialog.locator('.bulk-list:not(.bulk-refused) li').count()).toBe(999);
  expect(await dialog.locator('.bulk-refused li').count()).toBe(1);
  expect(await dialog.locator('input[name="id"]').count()).toBe(1000);
  await dialog.getByRole('button', { name: 'Avbryt' }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  expect((await statuses(ids)).active).toBe(1001);
  await withJs.context().close();

  const noJs = await portal.loggedInPage('anna@demo.test', { js: false });
  noJs.setDefaultTimeout(60_000);
  await noJs.goto(`/sims?q=${mark}`);
  await noJs.getByRole('button', { name: /^Markera alla som matchar sökningen \(fler än 1\s000\)$/ }).click();
  await noJs.getByText(/^1\s000 markerade$/).waitFor();
  await noJs.getByRole('button', { name: 'Avaktivera markerade' }).click();
  await noJs.waitForURL((u) => u.pathname === '/sims/deactivate');
  await noJs.getByText(/^Fler än 1\s000 SIM-kort matchar, men högst 1\s000 kan avaktiveras åt gången/).waitFor();
  await noJs.getByText('999 SIM-kort kommer att avaktiveras').waitFor();
  await noJs.getByRole('button', { name: 'Avaktivera 999 SIM-kort' }).click();
  await noJs.getByRole('heading', { name: 'Resultat av avaktiveringen' }).waitFor();
  // The whole table is there once the link after it is.
  await noJs.getByRole('link', { name: 'Tillbaka till SIM-korten' }).waitFor();
  expect(await noJs.locator('tr[data-outcome="deactivated"]').count()).toBe(999);
  expect(await noJs.locator('tr[data-outcome="legacy"]').count()).toBe(1);
  // The two oldest were not among the first 1,000 of the list: still active, and the search finds them (and
  // the legacy one) now.
  expect(await statuses(ids)).toEqual({ active: 2, deactivated: 999, events: 999 });
  await noJs.goto(`/sims?q=${mark}`);
  expect(await noJs.getByRole('row').count()).toBe(4);
  await noJs.context().close();
});

for (const width of [undefined, MOBILE.width]) {
  it(`the dialog by keyboard (${width ? `${width} px` : 'desktop'}): labelled, Tab stays inside, Esc and "Avbryt" close it, nothing changes`, async () => {
    const mark = `keys-${width ?? 'wide'}`;
    const { current } = await seed(mark, 3);
    const page = await portal.loggedInPage('anna@demo.test', { js: true, width });
    await page.goto(`/sims?q=${mark}`);
    await page.locator('form[data-bulk-ready]').waitFor();
    for (const s of current.slice(0, 2)) await page.getByLabel(`Markera SIM-kort ${s.iccid}`).check();
    await page.getByText('2 markerade', { exact: true }).waitFor();
    const open = page.getByRole('button', { name: 'Avaktivera markerade' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Avaktivera flera SIM-kort' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-describedby')).toBe('bdsel-text');
    expect(await axeViolations(page)).toEqual([]);
    // The safe choice has the focus first; Tab and Shift+Tab go round the dialog, never to the page behind.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Avbryt');
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('dialog'));
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await inDialog()).toBe(true);
    }
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inDialog()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Focus back on the button that opened it; the selection kept.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Avaktivera markerade');
    await page.getByText('2 markerade', { exact: true }).waitFor();

    // Opened again by a click (Enter opening it is shown above; a key press racing the focus's return is not
    // what this checks).
    await open.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Avbryt' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await statuses(current.map((s) => s.id))).toEqual({ active: 3, deactivated: 0, events: 0 });

    // Confirmed at last: the two ticked ones are deactivated, the third is not.
    await open.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Avaktivera 2 SIM-kort' }).click();
    await page.getByRole('heading', { name: 'Resultat av avaktiveringen' }).waitFor();
    expect(await statuses(current.map((s) => s.id))).toEqual({ active: 1, deactivated: 2, events: 2 });
    await page.context().close();
  });
}

it('a live search starts a new selection, and unticking one row leaves "all matching"', async () => {
  const mark = 'live';
  const { current } = await seed(mark, 55);
  const page = await portal.loggedInPage('anna@demo.test', { js: true });
  await page.goto(`/sims?q=${mark}`);
  await page.locator('form[data-bulk-ready]').waitFor();
  await page.getByRole('button', { name: 'Markera alla 56 som matchar sökningen' }).click();
  await page.getByText('56 markerade', { exact: true }).waitFor();
  await page.getByRole('checkbox').first().uncheck();
  await page.getByText('49 markerade', { exact: true }).waitFor();
  expect(await page.getByText('Alla 56 SIM-kort som matchar sökningen är markerade.').count()).toBe(0);
  await page.getByRole('button', { name: 'Markera alla 56 som matchar sökningen' }).waitFor();
  // Searching for one ICCID: the list is new, and so is the selection.
  await page.getByRole('searchbox').fill(current[0]!.iccid);
  await expect.poll(() => page.getByRole('checkbox').count()).toBe(1);
  // Nothing ticked: the toolbar with the count and "Avaktivera markerade" is hidden.
  await expect.poll(() => page.locator('.sims-toolbar').isVisible()).toBe(false);
  expect(await page.getByRole('checkbox').isChecked()).toBe(false);
  expect(await page.getByRole('button', { name: /som matchar sökningen/ }).count()).toBe(0);
  await page.context().close();
});
