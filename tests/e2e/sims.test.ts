// Long: the SIM screens share one Chromium, the logins and the page helpers, JS on and off.
// SIM screens in a real Chromium, JS on and off: activate, search, edit, deactivate, 390 px layout.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946777');

async function pageAs(email: string, js: boolean, viewport?: { width: number; height: number }): Promise<Page> {
  return portal.loggedInPage(email, { js, width: viewport?.width });
}

for (const js of [true, false]) {
  describe(`SIM screens with JS ${js ? 'on' : 'off'}`, () => {
    it('activates a SIM, keeping values and showing messages on bad input, then goes back', async () => {
      const page = await pageAs('anna@demo.test', js);
      await page.goto('/sims');
      await page.goto('/add');
      if (js) {
        // Nothing but the amount before an amount is chosen: the boxes cannot be used (disabled once JS has taken
        // over, decision 031; tests/e2e/plan-selector.test.ts) and their tooltips say why; the rules apply live
        // from the first change.
        await page.waitForFunction(() => '__remixRouter' in window);
        for (const label of ['Aktivera tal & SMS', 'Aktivera roaming'])
          expect(await page.getByLabel(label).evaluate((b) => getComputedStyle(b).pointerEvents)).toBe('none');
        await expect
          .poll(() =>
            page.locator('.check[title="Du måste välja en datamängd för att kunna aktivera tal & SMS"]').count(),
          )
          .toBe(1);
      }
      const iccid = newIccid();
      const bad = iccid.slice(0, 19) + String((Number(iccid[19]) + 1) % 10);
      await page.getByLabel('ICCID').fill(bad);
      await page.getByLabel('Fakturamärkning').fill('<b>Lager</b> "7"');
      await page.getByLabel('Datamängd', { exact: true }).selectOption({ label: '5 GB' });
      await page.getByLabel('Aktivera tal & SMS').check();
      await page.getByRole('button', { name: 'Aktivera' }).click();
      // The message under the field (the error summary at the top repeats it as a link).
      await page.locator('#iccid-error', { hasText: 'kontrollsiffra stämmer inte' }).waitFor();
      expect(await page.getByLabel('ICCID').inputValue()).toBe(bad);
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('<b>Lager</b> "7"');
      expect(await page.getByLabel('Datamängd', { exact: true }).inputValue()).toBe('5000');
      expect(await page.getByLabel('Aktivera tal & SMS').isChecked()).toBe(true);
      expect(await page.getByLabel('ICCID').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('ICCID').fill(iccid);
      await page.getByRole('button', { name: 'Aktivera' }).click();
      await page.waitForURL((u) => u.pathname === '/sims');
      const row = page.getByRole('row').filter({ hasText: iccid });
      await row.waitFor();
      // User text is shown as text, never as markup.
      expect(await row.innerText()).toContain('<b>Lager</b> "7"');
      const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { iccid }, { populate: ['ratePlan'] });
      expect(sim.ratePlan.code).toBe('DATA-5000-TS');
      await page.context().close();
    });

    it('refuses a combination without a plan with a clear message', async () => {
      const page = await pageAs('anna@demo.test', js);
      await page.goto('/add');
      // The ICCID is ready to type in (the browser's autofocus, with and without JS).
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('iccid');
      // Without a price list's address (PRICE_LIST_URL) its sentence is plain text: no link to nowhere.
      expect(await page.locator('.plan-help').first().textContent()).toBe(
        'Kostnad tillkommer för tal & SMS. Se prislista för priser.',
      );
      expect(await page.locator('.plan-help a').count()).toBe(0);
      await page.getByLabel('ICCID').fill(newIccid());
      if (js)
        // The boxes stay as the server made them until the user changes something (nothing switches on hydration).
        await page.waitForFunction(() => '__remixRouter' in window);
      await page.getByLabel('Datamängd', { exact: true }).selectOption({ label: '500 MB' });
      if (js) {
        expect(await page.getByLabel('Aktivera tal & SMS').isDisabled()).toBe(true);
        expect(await page.getByText('Finns inte för 500 MB.').count()).toBe(2);
      } else {
        await page.getByLabel('Aktivera tal & SMS').check();
        await page.getByRole('button', { name: 'Aktivera' }).click();
        await page
          .locator('#plan-error', {
            hasText: 'Tal & SMS finns inte för 500 MB. Ta bort krysset för Aktivera tal & SMS.',
          })
          .waitFor();
        expect(await page.getByLabel('Aktivera tal & SMS').getAttribute('aria-invalid')).toBe('true');
      }
      await page.context().close();
    });

    it('lets the plan selector reach only combinations that have a plan (1,5 GB needs roaming, 50 GB roaming with tal & SMS)', async () => {
      const page = await pageAs('anna@demo.test', js);
      await page.goto('/add');
      const iccid = newIccid();
      await page.getByLabel('ICCID').fill(iccid);
      await page.getByLabel('Fakturamärkning').fill('Roamingkort');
      const callAndSms = page.getByLabel('Aktivera tal & SMS');
      const roaming = page.getByLabel('Aktivera roaming');
      if (js) {
        // The boxes stay as the server made them until the user changes something (nothing switches on hydration).
        await page.waitForFunction(() => '__remixRouter' in window);
        // 50 GB exists without options or with both: roaming follows tal & SMS, locked.
        await page.getByLabel('Datamängd', { exact: true }).selectOption({ label: '50 GB' });
        expect(await callAndSms.isEnabled()).toBe(true);
        expect(await roaming.isDisabled()).toBe(true);
        expect(await roaming.isChecked()).toBe(false);
        await page.getByText('Finns inte för 50 GB utan tal & SMS.').waitFor();
        await callAndSms.check();
        expect(await roaming.isChecked()).toBe(true);
        expect(await roaming.isDisabled()).toBe(true);
        await page.getByText('Ingår alltid för 50 GB med tal & SMS.').waitFor();
        await callAndSms.uncheck();
        expect(await roaming.isChecked()).toBe(false);
        // 1,5 GB exists only with roaming: ticked and locked, and posted although the box is disabled.
        await page.getByLabel('Datamängd', { exact: true }).selectOption({ label: '1,5 GB' });
        expect(await roaming.isChecked()).toBe(true);
        expect(await roaming.isDisabled()).toBe(true);
        expect(await callAndSms.isDisabled()).toBe(true);
        await page.getByText('Ingår alltid för 1,5 GB.').waitFor();
      } else {
        // Without JS nothing is locked: the server says what to change, next to the plan fieldset, values kept.
        await page.getByLabel('Datamängd', { exact: true }).selectOption({ label: '1,5 GB' });
        await page.getByRole('button', { name: 'Aktivera' }).click();
        const message = 'Roaming ingår alltid för 1,5 GB. Kryssa i Aktivera roaming.';
        const fieldset = page.getByRole('group', { name: 'Abonnemang' });
        await fieldset.getByText(message).waitFor();
        expect(await page.getByRole('alert').innerText()).toContain('Kontrollera de markerade fälten');
        expect(await roaming.getAttribute('aria-invalid')).toBe('true');
        const errorId = await fieldset.getByText(message).getAttribute('id');
        expect(await fieldset.getAttribute('aria-describedby')).toBe(errorId);
        expect(await roaming.getAttribute('aria-describedby')).toContain(errorId!);
        expect(await page.getByLabel('ICCID').inputValue()).toBe(iccid);
        expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Roamingkort');
        expect(await page.getByLabel('Datamängd', { exact: true }).inputValue()).toBe('1500');
        await roaming.check();
      }
      await page.getByRole('button', { name: 'Aktivera' }).click();
      await page.waitForURL((u) => u.pathname === '/sims');
      const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { iccid }, { populate: ['ratePlan'] });
      expect(sim.ratePlan.code).toBe('DATA-1500-R');
      await page.context().close();
    });

    it('searches on the portal.server, edits a SIM and deactivates it', async () => {
      const page = await pageAs('anna@demo.test', js);
      const iccid = newIccid();
      const caller = await import('#tests/helpers/caller.ts');
      const anna = await caller.callerFor(portal.server.services, 'anna@demo.test');
      const { id } = await anna.sim.activate({
        iccid,
        dataLimit: 1000,
        callAndSms: false,
        roaming: false,
        invoiceLineMark: `Sökbar ${js}`,
        invoiceLineNote: '',
      });
      await page.goto('/sims');
      // With JS the search is live: typing alone makes the router load the list for the new address (its data
      // request, /sims.data?q=...), without a press of "Sök".
      const liveCall = js
        ? page.waitForRequest((r) => {
            const url = new URL(r.url());
            return url.pathname === '/sims.data' && url.searchParams.get('q') === `sökbar ${js}`;
          })
        : null;
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      await page.getByLabel('Sök bland SIM-kort').fill(`sökbar ${js}`);
      if (!js) await page.getByRole('button', { name: 'Sök' }).click();
      await liveCall;
      await page.waitForURL((u) => u.searchParams.get('q') === `sökbar ${js}`);
      await page.getByRole('row').filter({ hasText: iccid }).waitFor();
      expect(await page.locator('tbody tr').count()).toBe(1);

      await page.getByRole('link', { name: `Redigera SIM-kort ${iccid}` }).click();
      // The SIM's page remembers the list it was opened from (?list=, the way back).
      await page.waitForURL((u) => u.pathname === `/sims/${id}`);
      expect(await page.getByText(iccid).count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Datamängd', { exact: true }).inputValue()).toBe('1000');
      // Saving without a change says so, and writes nothing.
      expect(await page.getByText('Inga ändringar att spara.').count()).toBe(0);
      await page.getByRole('button', { name: 'Spara' }).click();
      await page.getByRole('status').filter({ hasText: 'Inga ändringar att spara.' }).waitFor();
      expect(await page.locator('table.history tbody tr').count()).toBe(1);
      await page.getByRole('cell', { name: 'Aktiverat med abonnemanget Data 1 GB', exact: true }).waitFor();

      await page.getByLabel('Fakturamärkning').fill('Ny märkning');
      await page.getByLabel('Aktivera tal & SMS').check();
      await page.getByRole('button', { name: 'Spara' }).click();
      // The history line says what changed, from what to what.
      const line = page.locator('table.history tbody tr').first().locator('td').nth(1);
      await line.getByText('Abonnemang ändrat från Data 1 GB till Data 1 GB med tal & SMS', { exact: true }).waitFor();
      expect(
        await line.getByText(`Fakturamärkning ändrad från ”Sökbar ${js}” till ”Ny märkning”`, { exact: true }).count(),
      ).toBe(1);
      expect(await page.getByText('Inga ändringar att spara.').count()).toBe(0);
      expect(await page.getByText('(abonnemang)').count()).toBe(0);
      const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { id }, { populate: ['ratePlan'] });
      expect(sim.invoiceLineMark).toBe('Ny märkning');
      expect(sim.ratePlan.code).toBe('DATA-1000-TS');

      await page.getByRole('link', { name: 'Avaktivera' }).click();
      if (js) {
        const dialog = page.getByRole('dialog', { name: 'Ta bort SIM-kort' });
        await dialog.waitFor();
        await dialog.getByRole('button', { name: 'Avbryt' }).click();
        expect(await dialog.isVisible()).toBe(false);
        await page.getByRole('link', { name: 'Avaktivera' }).click();
        await dialog.getByRole('button', { name: 'Fortsätt' }).click();
      } else {
        await page.waitForURL((u) => u.pathname === `/sims/${id}/deactivate`);
        await page.getByRole('heading', { name: 'Ta bort SIM-kort' }).waitFor();
        await page.getByRole('button', { name: 'Fortsätt' }).click();
      }
      // Back on the list as it was: its search kept.
      await page.waitForURL((u) => u.pathname === '/sims' && u.searchParams.get('q') === `sökbar ${js}`);
      const after = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { id });
      expect(after.status).toBe('deactivated');
      await page.context().close();
    });

    it('shows a legacy SIM read-only with the support message', async () => {
      const legacy = await portal.server.services.orm.em
        .fork()
        .findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
      const page = await pageAs('anna@demo.test', js);
      await page.goto(`/sims/${legacy.id}`);
      await page.getByText('kan inte redigeras här. Kontakta supporten').waitFor();
      expect(await page.getByRole('button', { name: 'Spara' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Avaktivera' }).count()).toBe(0);
      await page.context().close();
    });
  });
}

describe('SIM screens, other cases', () => {
  it('answers a Swedish 404 for another company’s SIM and an unknown id', async () => {
    const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { status: 'active' });
    const em = portal.server.services.orm.em.fork();
    const { Company, User } = await import('#server/db/entities.ts');
    const other = em.create(Company, {
      name: 'Ett Annat AB',
      customerNumber: 'E-404',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    em.create(User, { name: 'Eva', email: 'eva@annat.se', company: other });
    await em.flush();
    const cookie = await portal.server.sessionCookie('eva@annat.se');
    for (const path of [`/sims/${sim.id}`, '/sims/999999', '/sims/abc', `/sims/${sim.id}/deactivate`]) {
      const res = await fetch(portal.server.url + path, { headers: { cookie } });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Sidan finns inte');
    }
    const post = await fetch(`${portal.server.url}/sims/${sim.id}/deactivate`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(post.status).toBe(404);
    expect((await portal.server.services.orm.em.fork().findOneOrFail(Sim, { id: sim.id })).status).toBe('active');
  });

  it('shows the last 8 ICCID digits at 390 px and the whole ICCID on desktop', async () => {
    const sim = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active' }, { orderBy: { id: 'asc' } });
    const mobile = await pageAs('anna@demo.test', true, MOBILE);
    await mobile.goto('/sims');
    // One cell holds the ICCID once; on a phone it shows (and names) the last 8 digits, and the whole ICCID is
    // nowhere on the screen.
    const cell = mobile.getByRole('cell', { name: sim.iccid.slice(-8), exact: true }).first();
    expect(await cell.isVisible()).toBe(true);
    expect(await cell.innerText()).toBe(sim.iccid.slice(-8));
    // After an ellipsis (drawn, not read: the cell's name is the digits), so the digits read as cut.
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toMatch(/^"…"/);
    expect(await mobile.locator('body').innerText()).not.toContain(sim.iccid);
    const widths = await mobile.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await mobile.screenshot({ path: 'test-results/sims-390.png', fullPage: true });
    await mobile.goto('/add');
    await mobile.screenshot({ path: 'test-results/add-390.png', fullPage: true });
    const desktop = await pageAs('anna@demo.test', true);
    await desktop.goto('/sims');
    const whole = desktop.getByRole('cell', { name: sim.iccid, exact: true }).first();
    expect(await whole.isVisible()).toBe(true);
    expect(await whole.innerText()).toBe(sim.iccid);
    await desktop.screenshot({ path: 'test-results/sims-desktop.png', fullPage: true });
    await desktop.goto(`/sims/${sim.id}`);
    await desktop.screenshot({ path: 'test-results/sim-desktop.png', fullPage: true });
    await mobile.context().close();
    await desktop.context().close();
  });

  it('shows the last page for a page past the end, and page 1 for a negative or non-numeric one', async () => {
    const em = portal.server.services.orm.em.fork();
    const { Company } = await import('#server/db/entities.ts');
    const demo = await em.findOneOrFail(Company, { name: 'Demo AB' });
    // Enough SIMs for more than one page of 50.
    await em.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '8946999' || lpad(g::text, 13, '0'), ?, (select min(id) from rate_plan where not is_legacy), 'Sida ' || g, '', 'active', now()
         from generate_series(1, 60) g`,
      [demo.id],
    );
    const anna = await (await import('#tests/helpers/caller.ts')).callerFor(portal.server.services, 'anna@demo.test');
    const { total } = await anna.sim.page({ limit: 1 });
    const pages = Math.ceil(total / 50);
    expect(pages).toBeGreaterThanOrEqual(2);
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const get = (path: string) => fetch(portal.server.url + path, { headers: { cookie }, redirect: 'manual' });
    const past = await get('/sims?page=99');
    expect(past.status).toBe(302);
    expect(past.headers.get('location')).toBe(`/sims?page=${pages}`);
    const searched = await get('/sims?q=Lager&page=99');
    expect(searched.headers.get('location')).toBe('/sims?q=Lager');

    const page = await pageAs('anna@demo.test', false);
    await page.goto('/sims?page=99');
    expect(new URL(page.url()).search).toBe(`?page=${pages}`);
    await page.getByText(`Sida ${pages} av ${pages}`, { exact: true }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(total - (pages - 1) * 50);
    expect(await page.getByText('Det finns inga aktiva SIM-kort ännu.').count()).toBe(0);
    for (const bad of ['-3', 'abc', '0']) {
      await page.goto(`/sims?page=${bad}`);
      await page.getByText(`Sida 1 av ${pages}`, { exact: true }).waitFor();
      expect(await page.locator('tbody tr').count()).toBe(50);
    }
    await page.context().close();
  });

  it('says so when the list is empty and links to activation', async () => {
    const page = await pageAs('eva@annat.se', false);
    await page.goto('/sims');
    await page.getByText('Det finns inga aktiva SIM-kort ännu.').waitFor();
    expect(await page.getByRole('link', { name: 'Aktivera ett SIM-kort' }).getAttribute('href')).toBe('/add');
    await page.context().close();
  });
});
