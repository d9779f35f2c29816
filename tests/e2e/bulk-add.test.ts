// /add/bulk in a real Chromium, JS on and off: a pasted list, its preview (nothing activated yet), the
// confirm button, the result, a repeat that activates nothing twice, too long a list, and 390 px.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { axeViolations, MOBILE, pasteInto } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946555');
let bo: string;

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const other = em.create(Company, { name: 'Bolag C', customerNumber: 'C-1', invoiceNote: '' });
  em.create(User, { name: 'Bo', email: 'bo@c.se', company: other });
  await em.flush();
  bo = await portal.server.sessionCookie('bo@c.se');
});

const activeCount = (iccid: string) => portal.server.services.orm.em.fork().count(Sim, { iccid, status: 'active' });

/** Activates one ICCID through the REST door as the user of this session cookie. */
async function activateAs(cookie: string, iccid: string): Promise<void> {
  const res = await fetch(`${portal.server.url}/api/sim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ iccid, dataLimit: 1000, callAndSms: true, roaming: false }),
  });
  expect(res.status).toBe(200);
}

const count = (page: Page, outcome: string) => page.locator(`.bulk-counts [data-outcome=${outcome}] dd`).innerText();

async function fillList(page: Page, list: string) {
  await pasteInto(page.getByLabel('ICCID-nummer'), list);
  await page.getByLabel('Fakturamärkning').fill('Låda 7');
  await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
  await page.getByLabel('Aktivera tal & SMS').check();
}

for (const js of [true, false]) {
  describe(`/add/bulk with JS ${js ? 'on' : 'off'}`, () => {
    it('previews a pasted list without activating, then activates what is ready, and a repeat does nothing twice', async () => {
      const page = await portal.loggedInPage('anna@demo.test', { js, width: MOBILE.width });
      await page.goto('/');
      await page.getByRole('link', { name: 'Aktivera flera SIM-kort' }).click();
      await page.waitForURL((u) => u.pathname === '/add/bulk');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);

      const good = newIccid();
      const other = newIccid();
      const wrongCheck = other.slice(0, 19) + String((Number(other[19]) + 1) % 10);
      const theirs = newIccid();
      await activateAs(bo, theirs);
      await fillList(page, `${good}\n${wrongCheck}; ${good},${theirs}`);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();

      await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
      expect(await count(page, 'ready')).toBe('1');
      expect(await count(page, 'invalid')).toBe('1');
      expect(await count(page, 'duplicateInList')).toBe('1');
      expect(await count(page, 'activeElsewhere')).toBe('1');
      // The rows with a problem first, each with its number in the list, then the good one.
      const rows = page.locator('.bulk-rows tbody tr');
      expect(await rows.count()).toBe(4);
      expect(await rows.locator('td.bulk-n').allTextContents()).toEqual(['2', '3', '4', '1']);
      expect(await rows.nth(0).innerText()).toContain('kontrollsiffra');
      // Never whose: the other company is not named.
      expect(await page.locator('.bulk-rows').innerText()).not.toContain('Bolag C');
      // On a phone the ICCIDs are their last 8 digits after an ellipsis, and nothing scrolls sideways.
      expect(await rows.nth(3).locator('td.iccid > .only-mobile').first().innerText()).toBe(`…${good.slice(-8)}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      expect(await activeCount(good)).toBe(0);

      await page.getByRole('button', { name: 'Aktivera 1 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      expect(await count(page, 'activated')).toBe('1');
      expect(await count(page, 'invalid')).toBe('1');
      expect(await rows.nth(2).getAttribute('data-outcome')).toBe('activeElsewhere');
      expect(await rows.nth(3).getAttribute('data-outcome')).toBe('activated');
      expect(await activeCount(good)).toBe(1);
      const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { iccid: good, status: 'active' });
      expect(sim.invoiceLineMark).toBe('Låda 7');

      // The same list again: the good one is already active, so there is nothing to activate.
      await page.getByRole('button', { name: 'Förhandsgranska samma lista igen' }).click();
      await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
      expect(await count(page, 'alreadyActive')).toBe('1');
      expect(await page.locator('.bulk-counts [data-outcome=ready]').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Aktivera \d+ SIM-kort$/ }).count()).toBe(0);
      expect(await activeCount(good)).toBe(1);
      await page.context().close();
    });

    it('confirming the same list twice activates nothing twice', async () => {
      const page = await portal.loggedInPage('anna@demo.test', { js });
      await page.goto('/add/bulk');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      const [a, b] = [newIccid(), newIccid()];
      await fillList(page, `${a} ${b}`);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      const confirm = page.getByRole('button', { name: 'Aktivera 2 SIM-kort' });
      await confirm.waitFor();
      // Another tab activates one of them between the preview and the confirm.
      await activateAs(await portal.server.sessionCookie('anna@demo.test'), a);
      await confirm.click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      expect(await count(page, 'activated')).toBe('1');
      expect(await count(page, 'alreadyActive')).toBe('1');
      expect([await activeCount(a), await activeCount(b)]).toEqual([1, 1]);
      await page.context().close();
    });

    it('shows 1,000 rows on a phone without sideways scroll, accessible, in preview and result', async () => {
      const page = await portal.loggedInPage('anna@demo.test', { js, width: MOBILE.width });
      await page.goto('/add/bulk');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      const list = [...Array.from({ length: 998 }, () => newIccid()), '9'.repeat(100), 'abc'];
      await fillList(page, list.join('\n'));
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page.getByRole('button', { name: 'Aktivera 998 SIM-kort' }).waitFor();
      expect(await count(page, 'invalid')).toBe('2');
      // Without JS the long page is still arriving when its first rows show.
      const rows = page.locator('.bulk-rows tbody tr');
      await expect.poll(() => rows.count()).toBe(1000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      // axe needs scripts: it runs with JS on; the markup without JS is the same server-rendered page.
      if (js) expect(await axeViolations(page)).toEqual([]);
      expect(await portal.server.services.orm.em.fork().count(Sim, { iccid: { $in: list }, status: 'active' })).toBe(0);

      await page.getByRole('button', { name: 'Aktivera 998 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      expect(await count(page, 'activated')).toBe('998');
      await expect.poll(() => page.locator('.bulk-rows tr[data-outcome=activated]').count()).toBe(998);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      if (js) expect(await axeViolations(page)).toEqual([]);
      expect(await portal.server.services.orm.em.fork().count(Sim, { iccid: { $in: list }, status: 'active' })).toBe(
        998,
      );
      await page.context().close();
      // axe over 1,000 rows, twice, takes 20 s on an idle machine and several times that on a loaded one (as the
      // 1,000-row test of bulk-scan.test.ts).
    }, 240_000);

    it('refuses a plan choice the rules do not allow next to the plan, as /add does, keeping the list', async () => {
      const page = await portal.loggedInPage('anna@demo.test', { js });
      await page.goto('/add/bulk');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      const iccid = newIccid();
      await page.getByLabel('ICCID-nummer').fill(iccid);
      await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
      if (js) {
        // With JS the selector's rules apply live: the option is disabled, exactly as on /add.
        expect(await page.getByLabel('Aktivera tal & SMS').isDisabled()).toBe(true);
      } else {
        await page.getByLabel('Aktivera tal & SMS').check();
        await page.getByRole('button', { name: 'Förhandsgranska' }).click();
        // Under the plan, and in the summary at the top with a link to the option.
        const message = 'Tal & SMS finns inte för 500 MB. Ta bort krysset för Aktivera tal & SMS.';
        await page.locator('#plan-error').getByText(message).waitFor();
        expect(await page.locator('#error-summary').getByRole('link').allInnerTexts()).toEqual([message]);
        expect(await page.getByLabel('ICCID-nummer').inputValue()).toBe(iccid);
        expect(await page.getByRole('heading', { name: 'Förhandsgranskning' }).count()).toBe(0);
      }
      expect(await activeCount(iccid)).toBe(0);
      await page.context().close();
    });

    it('refuses more than 10,000 ICCIDs next to the field, keeping what was typed', async () => {
      const page = await portal.loggedInPage('anna@demo.test', { js });
      await page.goto('/add/bulk');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      const list = Array.from({ length: 10_001 }, (_, i) => `8946555${String(i).padStart(13, '0')}`).join('\n');
      await fillList(page, list);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page
        .locator('#iccids-error')
        .getByText('Listan har 10\u00a0001 ICCID-nummer; högst 10\u00a0000 går på en gång.')
        .waitFor();
      expect(await page.locator('#error-summary').innerText()).toContain('ICCID-nummer: Listan har 10\u00a0001');
      expect(await page.getByLabel('ICCID-nummer').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('ICCID-nummer').inputValue()).toBe(list);
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Låda 7');
      expect(await page.getByLabel('Datamängd').inputValue()).toBe('1000');
      expect(await portal.server.services.orm.em.fork().count(Sim, { iccid: { $like: '8946555000%' } })).toBe(0);
      await page.context().close();
    });
  });
}

// 10,000 pasted ICCIDs with JS. The live preview of the whole list comes back, the run shows its progress
// (500 a chunk) and ends with the counts, the page listing no row it has nothing to say about; without JS the
// plain form posts the same list and its result page comes when it is done.
for (const js of [true, false]) {
  it(`10,000 pasted ICCIDs, JS ${js ? 'on: live preview, progress' : 'off: the plain form'}, then the counts`, async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js });
    await page.goto('/add/bulk');
    if (js) await page.waitForFunction(() => '__remixRouter' in window);
    const list = Array.from({ length: 10_000 }, () => newIccid());
    const started = Date.now();
    await fillList(page, list.join('\n'));
    if (!js) await page.getByRole('button', { name: 'Förhandsgranska' }).click();
    await page.getByRole('button', { name: 'Aktivera 10\u00a0000 SIM-kort' }).click();
    if (js) await page.getByRole('progressbar').waitFor();
    await page.getByRole('heading', { name: 'Resultat' }).waitFor({ timeout: 60_000 });
    expect(await count(page, 'activated')).toBe('10000');
    expect(
      await page.getByText('ingen rad har någon anmärkning, och de 10\u00a0000 raderna listas inte här').count(),
    ).toBe(1);
    expect(await page.locator('.bulk-rows tbody tr').count()).toBe(0);
    expect(await portal.server.services.orm.em.fork().count(Sim, { iccid: { $in: list }, status: 'active' })).toBe(
      10_000,
    );
    console.log(`10,000 pasted, JS ${js ? 'on' : 'off'}: preview and activation in ${Date.now() - started} ms`);
    await page.context().close();
  }, 120_000);
}
