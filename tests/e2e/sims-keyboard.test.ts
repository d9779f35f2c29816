// The keyboard on /sims (issue 41, finding 2): every task in at most 10 key presses from the top of the page, counted
// here press by press (the text typed into a field is not counted: it is the task's own words). With JS the list is
// one stop of Tab ("Hoppa till listan" reaches its current row; ↑ ↓ between rows; Enter opens; Space ticks) and the
// toolbar of the ticked rows stands before it (Shift+Tab from a row; ← → End between its buttons; Enter in its tag
// field adds the tag). Without JS the skip link still leads to the rows.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { activatedSims, callerFor } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946594');
const anna = () => callerFor(portal.server.services, 'anna@demo.test');

/** SIMs of a mark, newest first (as /sims lists them). */
const seed = (mark: string, n: number) => activatedSims(portal.server.services, 'anna@demo.test', mark, n, newIccid);

/** A page whose key presses are counted (typing text is not). */
async function counted(
  js: boolean,
  address: string,
): Promise<{ page: Page; press: (key: string) => Promise<void>; n: () => number }> {
  const page = await portal.loggedInPage('anna@demo.test', { js });
  await page.goto(address);
  if (js) await page.locator('form[data-bulk-ready]').waitFor();
  let n = 0;
  return {
    page,
    press: async (key) => {
      n++;
      await page.keyboard.press(key);
    },
    n: () => n,
  };
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
  });

describe('/sims by the keyboard (JS)', () => {
  it('search: "/", the words, Enter (2 presses)', async () => {
    await seed('Tangentsök', 1);
    const { page, press, n } = await counted(true, '/sims');
    await press('/');
    await page.keyboard.type('Tangentsök');
    await press('Enter');
    await page.waitForURL((u) => u.searchParams.get('q') === 'Tangentsök');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(n()).toBeLessThanOrEqual(10);
    await page.context().close();
  });

  it('open a SIM: the skip link to the rows, ↓, Enter (4 presses)', async () => {
    const sims = await seed('Tangentöppna', 3);
    const { page, press, n } = await counted(true, '/sims?q=Tangentöppna');
    await press('Tab');
    expect(await focused(page)).toBe('Hoppa till listan');
    await press('Enter');
    expect(await focused(page)).toBe(`Markera SIM-kort ${sims[0]?.iccid}`);
    await press('ArrowDown');
    expect(await focused(page)).toBe(`Markera SIM-kort ${sims[1]?.iccid}`);
    // The rows are one stop: the list's 3 boxes are not 3 stops of Tab.
    expect(await page.locator('tbody input[name="id"][tabindex="0"]').count()).toBe(1);
    await press('Enter');
    await page.waitForURL((u) => u.pathname === `/sims/${sims[1]?.id}`);
    expect(n()).toBeLessThanOrEqual(10);
    await page.context().close();
  });

  it('tick two and pause them: Space, ↓, Space, Shift+Tab to the toolbar (9 presses)', async () => {
    const sims = await seed('Tangentpaus', 3);
    const { page, press, n } = await counted(true, '/sims?q=Tangentpaus');
    await press('Tab');
    await press('Enter');
    await press('Space');
    await press('ArrowDown');
    await press('Space');
    await page.getByText('2 markerade', { exact: true }).waitFor();
    await press('Shift+Tab');
    expect(await focused(page)).toBe('Markera alla på sidan');
    await press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bulk-tag');
    await press('Shift+Tab');
    expect(await focused(page)).toBe('Pausa markerade SIM-kort');
    await press('Enter');
    const caller = await anna();
    await expect.poll(async () => (await caller.sim.byId({ id: sims[1]?.id ?? 0 })).status).toBe('paused');
    expect((await caller.sim.byId({ id: sims[0]?.id ?? 0 })).status).toBe('paused');
    expect((await caller.sim.byId({ id: sims[2]?.id ?? 0 })).status).toBe('active');
    expect(n()).toBeLessThanOrEqual(10);
    await page.context().close();
  });

  it('tick one and deactivate it: the toolbar, End, Enter, and the dialog (10 presses)', async () => {
    const sims = await seed('Tangentavsluta', 2);
    const { page, press, n } = await counted(true, '/sims?q=Tangentavsluta');
    await press('Tab');
    await press('Enter');
    await press('Space');
    for (let i = 0; i < 3; i++) await press('Shift+Tab');
    // The toolbar's buttons are one stop; End goes to its last, the deactivation.
    expect(await page.locator('.sims-toolbar button[tabindex="0"]').count()).toBe(1);
    await press('End');
    expect(await focused(page)).toBe('Avaktivera markerade');
    await press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Avaktivera 1 SIM-kort' }).waitFor();
    // The safe choice first: Tab goes on to the deactivation.
    expect(await focused(page)).toBe('Avbryt');
    await press('Tab');
    await press('Enter');
    const caller = await anna();
    // Deactivated: no longer a SIM of the company's reads.
    await expect
      .poll(async () => (await portal.server.services.orm.em.fork().findOneOrFail(Sim, sims[0]?.id ?? 0)).status)
      .toBe('deactivated');
    expect((await caller.sim.byId({ id: sims[1]?.id ?? 0 })).status).toBe('active');
    expect(n()).toBeLessThanOrEqual(10);
    await page.context().close();
  });

  it('tick one and tag it: the tag field, the tag, Enter (6 presses)', async () => {
    const sims = await seed('Tangenttagg', 2);
    const { page, press, n } = await counted(true, '/sims?q=Tangenttagg');
    await press('Tab');
    await press('Enter');
    await press('Space');
    await press('Shift+Tab');
    await press('Shift+Tab');
    await page.keyboard.type('Tangentbord');
    await press('Enter');
    const caller = await anna();
    await expect.poll(async () => (await caller.sim.byId({ id: sims[0]?.id ?? 0 })).tags).toEqual(['Tangentbord']);
    expect((await caller.sim.byId({ id: sims[1]?.id ?? 0 })).tags).toEqual([]);
    expect(n()).toBeLessThanOrEqual(10);
    await page.context().close();
  });
});

describe('/sims by the keyboard without JS', () => {
  it('"Hoppa till listan" is the first stop and leads past the search and the view to the rows', async () => {
    const sims = await seed('Tangentlös', 2);
    const { page, press } = await counted(false, '/sims?q=Tangentlös');
    await press('Tab');
    expect(await focused(page)).toBe('Hoppa till listan');
    await press('Enter');
    await press('Tab');
    expect(await focused(page)).toBe('Markera alla på sidan');
    // The sortable headers, then the first row's box.
    for (let i = 0; i < 4 && (await focused(page)) !== `Markera SIM-kort ${sims[0]?.iccid}`; i++) await press('Tab');
    expect(await focused(page)).toBe(`Markera SIM-kort ${sims[0]?.iccid}`);
    await page.context().close();
  });
});
