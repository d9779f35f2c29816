// Deactivate many from /sims in a real Chromium, JS on and off, at desktop and 390 px: tick rows,
// the confirm dialog (JS) or page (no JS) lists them (legacy ones as refused), the POST deactivates, the result
// page lists each row. Selecting all matching a search and the dialog's keyboard: bulk-deactivate-select.test.ts.
import { describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim, SimEvent, User } from '#server/db/entities.ts';
import { injectAxe, MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946555');

/** Anna's company gets two SIMs on a current plan and one on a legacy plan, all three under one mark. */
async function threeSims(mark: string) {
  const em = portal.server.services.orm.em.fork();
  const anna = await em.findOneOrFail(User, { email: 'anna@demo.test' }, { populate: ['company'] });
  const company = await em.findOneOrFail(Company, { id: anna.company.id });
  const current = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const legacy = await em.findOneOrFail(RatePlan, { isLegacy: true }, { orderBy: { id: 'asc' } });
  const make = (ratePlan: RatePlan) => em.create(Sim, { iccid: newIccid(), company, ratePlan, invoiceLineMark: mark });
  const sims = [make(current), make(current), make(legacy)];
  await em.flush();
  const [a, b, old] = sims.map((s) => ({ id: s.id, iccid: s.iccid }));
  return [a!, b!, old!] as const;
}

async function stateOf(id: number) {
  const em = portal.server.services.orm.em.fork();
  const sim = await em.findOneOrFail(Sim, { id });
  const events = await em.count(SimEvent, { sim: id, kind: 'deactivated' });
  return { status: sim.status, events };
}

/** axe's WCAG 2.1 AA violations on the page as it is (the result page answers a POST, so it is not in a11y.test.ts). */
async function axeViolations(page: import('playwright-core').Page): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: Array<{ id: string }> }> };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => v.id);
  });
}

async function noSidewaysScroll(page: import('playwright-core').Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner);
}

for (const js of [true, false]) {
  for (const width of [undefined, MOBILE.width]) {
    const label = `JS ${js ? 'on' : 'off'}, ${width ? `${width} px` : 'desktop'}`;
    describe(`deactivate many from /sims, ${label}`, () => {
      it('ticks two SIMs and a legacy one, confirms, and shows per-row results; only the two are deactivated', async () => {
        const mark = `bulk-${js ? 'js' : 'nojs'}-${width ?? 'wide'}`;
        const [a, b, old] = await threeSims(mark);
        const page = await portal.loggedInPage('anna@demo.test', { js, width });
        await page.goto(`/sims?q=${mark}`);
        if (js) await page.locator('form[data-bulk-ready]').waitFor();
        expect(await page.getByRole('row').count()).toBe(4);
        for (const s of [a, b, old]) await page.getByLabel(`Markera SIM-kort ${s.iccid}`).check();
        // With JS the count follows the boxes; without JS the confirm page counts.
        if (js) await page.getByText('3 markerade', { exact: true }).waitFor();
        if (width) await noSidewaysScroll(page);
        await page.getByRole('button', { name: 'Avaktivera markerade' }).click();
        // With JS a modal dialog on /sims; without JS the confirm page (a GET).
        const confirm = js ? page.getByRole('dialog', { name: 'Avaktivera flera SIM-kort' }) : page.locator('body');
        if (js) await confirm.waitFor();
        else {
          await page.waitForURL((u) => u.pathname === '/sims/deactivate');
          await page.getByRole('heading', { name: 'Avaktivera flera SIM-kort' }).waitFor();
        }
        await confirm.getByText('2 SIM-kort kommer att avaktiveras').waitFor();
        // On a phone the last 8 digits after an ellipsis (it reads as cut); on a desktop all 20.
        const shown = (iccid: string) => (width ? `…${iccid.slice(-8)}` : iccid);
        const ready = confirm.locator('.bulk-list:not(.bulk-refused)');
        for (const s of [a, b]) await ready.getByText(shown(s.iccid), { exact: true }).waitFor();
        expect(await ready.getByText(shown(old.iccid)).count()).toBe(0);
        const refused = confirm.locator('.bulk-refused li');
        expect(await refused.count()).toBe(1);
        expect(await refused.innerText()).toContain(shown(old.iccid));
        expect(await refused.innerText()).toContain('Äldre abonnemang');
        if (width) await noSidewaysScroll(page);
        if (js && width) await page.screenshot({ path: 'test-results/bulk-deactivate-dialog-390.png' });
        if (!js && width)
          await page.screenshot({ path: 'test-results/bulk-deactivate-confirm-390.png', fullPage: true });
        // Nothing has happened yet.
        expect((await stateOf(a.id)).status).toBe('active');

        await confirm.getByRole('button', { name: 'Avaktivera 2 SIM-kort' }).click();
        await page.getByRole('heading', { name: 'Resultat av avaktiveringen' }).waitFor();
        const row = (iccid: string) => page.locator('tr[data-outcome]').filter({ hasText: shown(iccid) });
        expect(await page.locator('tr[data-outcome]').count()).toBe(3);
        expect(await row(a.iccid).getAttribute('data-outcome')).toBe('deactivated');
        expect(await row(b.iccid).getAttribute('data-outcome')).toBe('deactivated');
        expect(await row(old.iccid).getAttribute('data-outcome')).toBe('legacy');
        expect(await row(old.iccid).innerText()).toContain('Äldre abonnemang');
        expect(await page.locator('.deactivate-counts').innerText()).toMatch(
          /Avaktiverat: 2[\s\S]*Äldre abonnemang.*: 1/,
        );
        if (width) await noSidewaysScroll(page);
        if (js) expect(await axeViolations(page)).toEqual([]);
        if (js && width) await page.screenshot({ path: 'test-results/bulk-deactivate-result-390.png', fullPage: true });

        expect(await stateOf(a.id)).toEqual({ status: 'deactivated', events: 1 });
        expect(await stateOf(b.id)).toEqual({ status: 'deactivated', events: 1 });
        expect(await stateOf(old.id)).toEqual({ status: 'active', events: 0 });

        await page.getByRole('link', { name: 'Tillbaka till SIM-korten' }).click();
        await page.waitForURL((u) => u.pathname === '/sims');
        await page.goto(`/sims?q=${mark}`);
        expect(await page.getByRole('row').count()).toBe(2);
        await page.context().close();
      });
    });
  }

  it(`"Markera alla på sidan" ticks every row of the page (JS ${js ? 'on: in place' : 'off: the page comes back ticked'})`, async () => {
    const mark = `all-${js ? 'js' : 'nojs'}`;
    const sims = await threeSims(mark);
    const page = await portal.loggedInPage('anna@demo.test', { js });
    await page.goto(`/sims?q=${mark}`);
    if (js) await page.locator('form[data-bulk-ready]').waitFor();
    await page.getByRole('button', { name: 'Markera alla på sidan' }).click();
    for (const s of sims)
      await expect.poll(() => page.getByLabel(`Markera SIM-kort ${s.iccid}`).isChecked()).toBe(true);
    await page.getByText('3 markerade', { exact: true }).waitFor();
    if (js) {
      // A toggle: pressed again, it unticks the page, and with nothing ticked there is nothing to deactivate.
      await page.getByRole('button', { name: 'Avmarkera alla på sidan' }).click();
      for (const s of sims)
        await expect.poll(() => page.getByLabel(`Markera SIM-kort ${s.iccid}`).isChecked()).toBe(false);
      await expect.poll(() => page.locator('.sims-toolbar').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Markera alla på sidan' }).click();
      await page.getByText('3 markerade', { exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Avaktivera markerade' }).click();
    const confirm = js ? page.getByRole('dialog') : page.locator('body');
    await confirm.getByText('2 SIM-kort kommer att avaktiveras').waitFor();
    expect(await confirm.locator('.bulk-refused li').count()).toBe(1);
    await page.context().close();
  });

  it(`the confirm page without ticked rows says so and offers no button (JS ${js ? 'on' : 'off'})`, async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js });
    await page.goto('/sims/deactivate');
    await page.getByText('Inga SIM-kort är markerade.').waitFor();
    expect(await page.getByRole('button', { name: /^Avaktivera/ }).count()).toBe(0);
    await page.context().close();
  });

  it(`with nothing ticked on /sims: the button is hidden until a box is ticked${js ? '' : ', and the confirm page says so in Swedish'}`, async () => {
    const mark = `none-${js ? 'js' : 'nojs'}`;
    const [a] = await threeSims(mark);
    const page = await portal.loggedInPage('anna@demo.test', { js });
    await page.goto(`/sims?q=${mark}`);
    // The toolbar's button is in the page from the start (nothing changes when JS arrives), shown by CSS once ticked.
    const button = page.locator('.sims-toolbar .btn-destructive');
    if (js) await page.locator('form[data-bulk-ready]').waitFor();
    expect(await button.isVisible()).toBe(false);
    await page.getByLabel(`Markera SIM-kort ${a.iccid}`).check();
    await expect.poll(() => button.isVisible()).toBe(true);
    if (js) await page.getByText('1 markerad', { exact: true }).waitFor();
    if (!js) {
      // Sent without a tick (the address by hand), the confirm page says so.
      await page.goto(`/sims/deactivate?q=${mark}`);
      await page.getByText('Inga SIM-kort är markerade.').waitFor();
      // A POST with no id at all (a crafted one) gets the same Swedish message and changes nothing.
      const res = await page.request.post('/sims/deactivate', { form: {} });
      expect(res.status()).toBe(200);
      expect(await res.text()).toContain('Inga SIM-kort är markerade.');
    }
    expect((await stateOf(a.id)).status).toBe('active');
    await page.context().close();
  });
}

it("another company's SIM ticked by a crafted address is not listed, and a crafted POST leaves it active", async () => {
  const em = portal.server.services.orm.em.fork();
  const company = em.create(Company, { name: 'Bolag B', customerNumber: 'B-15', invoiceNote: '' });
  const ratePlan = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const other = em.create(Sim, { iccid: newIccid(), company, ratePlan });
  await em.flush();
  const page = await portal.loggedInPage('anna@demo.test', { js: false });
  await page.goto(`/sims/deactivate?id=${other.id}`);
  await page.getByText('Inga SIM-kort är markerade.').waitFor();
  expect(await page.content()).not.toContain(other.iccid);
  const res = await page.request.post('/sims/deactivate', { form: { id: String(other.id) } });
  expect(res.status()).toBe(200);
  expect(await res.text()).not.toContain(other.iccid);
  expect((await stateOf(other.id)).status).toBe('active');

  // The same forged POST from a page, beside one of Anna's own: her SIM is deactivated, the other company's is a
  // "notFound" row named by its id only, and stays active without an event.
  const [mine] = await threeSims('forged-mix');
  await page.context().close();
  const forger = await portal.loggedInPage('anna@demo.test', { js: true });
  await forger.goto('/sims/deactivate');
  await forger.evaluate(
    ([own, theirs]) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/sims/deactivate';
      for (const id of [own, theirs]) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = 'id';
        input.value = String(id);
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    [mine.id, other.id],
  );
  await forger.getByRole('heading', { name: 'Resultat av avaktiveringen' }).waitFor();
  expect(await forger.locator('tr[data-outcome]').count()).toBe(2);
  expect(await forger.locator('tr[data-outcome="deactivated"]').innerText()).toContain(mine.iccid);
  expect(await forger.locator('tr[data-outcome="notFound"]').innerText()).toContain(`Okänt SIM-kort (${other.id})`);
  expect(await forger.content()).not.toContain(other.iccid);
  expect(await stateOf(other.id)).toEqual({ status: 'active', events: 0 });
  expect(await stateOf(mine.id)).toEqual({ status: 'deactivated', events: 1 });
  await forger.context().close();
});
