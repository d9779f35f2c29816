// /company/api-keys ("API-nycklar") in a real Chromium, JS on and off, desktop and 390 px: an owner
// creates a key (a bad name refused next to the field, values kept), sees it once with the warning (and the
// copy button with JS), uses it over REST, finds only its prefix in the list afterwards, and revokes it on the
// confirm page, after which the key gets 401.
import { describe, expect, it } from 'vitest';
import { companyWithOwner, look, ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946488');

const owner = async (tag: string) => (await companyWithOwner(portal.server, 'Nyckel', tag)).ownerEmail;

describe('/company/api-keys', () => {
  for (const v of variants) {
    it(`creates a key shown once, lists it by prefix, revokes it (${v.tag})`, async () => {
      const email = await owner(v.tag);
      const page = await portal.loggedInPage(email, { js: v.js, width: v.width });
      await page.goto('/company');
      await ready(page, v.js);
      await page.getByRole('link', { name: 'API-nycklar' }).click();
      await page.waitForURL((u) => u.pathname === '/company/api-keys');
      await ready(page, v.js);
      await page.getByRole('heading', { name: 'API-nycklar', level: 1 }).waitFor();
      expect(await page.getByText('Företaget har inga API-nycklar.').count()).toBe(1);

      // A name of only spaces: refused next to the field, the scope kept.
      await page.getByLabel('Namn').fill('   ');
      await page.getByLabel('Behörighet').selectOption('write');
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.locator('#apikeys-name-error').waitFor();
      await ready(page, v.js);
      expect(await page.locator('#apikeys-name-error').textContent()).toBe('Ange ett namn på högst 100 tecken.');
      expect(await page.getByLabel('Behörighet').inputValue()).toBe('write');

      await page.getByLabel('Namn').fill(`Lagersystem ${v.tag}`);
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.getByRole('heading', { name: 'API-nyckeln är skapad' }).waitFor();
      await ready(page, v.js);
      await page.getByText('Den visas bara den här gången').waitFor();
      const key = await page.locator('#apikeys-new-key').inputValue();
      expect(key).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
      const copy = page.getByRole('button', { name: 'Kopiera' });
      expect(await copy.count()).toBe(v.js ? 1 : 0);
      if (v.js) {
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
        await copy.click();
        await page.getByRole('button', { name: 'Kopierad' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      }
      await look(page, `apikeys-created-${v.tag}`, v);

      // The key works on a REST path, with scope write.
      const used = await fetch(`${portal.server.url}/api/sim/all`, { headers: { authorization: `Bearer ${key}` } });
      expect(used.status).toBe(200);
      await used.text();

      // Shown once: the list afterwards has the prefix, never the key.
      await page.getByRole('link', { name: 'Till API-nycklarna' }).click();
      await page.getByRole('heading', { name: 'API-nyckeln är skapad' }).waitFor({ state: 'detached' });
      await ready(page, v.js);
      const html = await page.content();
      expect(html).not.toContain(key);
      expect(html).toContain(key.slice(0, 11));
      const row = page.getByRole('row').filter({ hasText: `Lagersystem ${v.tag}` });
      expect(await row.getByText('Skriv').count()).toBe(1);
      expect(await row.getByText('Aktiv').count()).toBe(1);
      expect(await row.locator('.badge[data-tone="ok"]').innerText()).toBe('Aktiv');
      await look(page, `apikeys-list-${v.tag}`, v);

      // Revoke, through the confirm page; cancel first changes nothing.
      await row.getByRole('link', { name: `Återkalla Lagersystem ${v.tag}` }).click();
      await page.waitForURL((u) => u.pathname.endsWith('/revoke'));
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Avbryt' }).click();
      await page.waitForURL((u) => u.pathname === '/company/api-keys');
      await ready(page, v.js);
      await row.getByRole('link', { name: `Återkalla Lagersystem ${v.tag}` }).click();
      await page.waitForURL((u) => u.pathname.endsWith('/revoke'));
      await ready(page, v.js);
      await page.getByText(`Vill du återkalla Lagersystem ${v.tag}`).waitFor();
      await look(page, `apikeys-revoke-${v.tag}`, v);
      await page.getByRole('button', { name: 'Ja, återkalla' }).click();
      await page.waitForURL((u) => u.pathname === '/company/api-keys');
      await page.getByText('API-nyckeln är återkallad.').first().waitFor();
      expect(await row.getByText('Återkallad').count()).toBe(1);
      expect(await row.locator('.badge[data-tone="neutral"]').innerText()).toBe('Återkallad');
      expect(await row.getByRole('link', { name: /Återkalla/ }).count()).toBe(0);

      const refused = await fetch(`${portal.server.url}/api/sim/all`, { headers: { authorization: `Bearer ${key}` } });
      expect(refused.status).toBe(401);
      await refused.text();

      // The page fits 390 px: no sideways scroll.
      if (v.width === 390) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      }
      await page.close();
    });
  }

  it('names the key in the SIM’s history and in the activity (without JS)', async () => {
    const email = await owner('actor');
    const cookie = await portal.server.sessionCookie(email);
    const made = await fetch(`${portal.server.url}/api/company/apiKeys`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ordersystemet', scope: 'write' }),
    });
    const { key } = (await made.json()) as { key: string };
    const iccid = newIccid();
    const sim = await fetch(`${portal.server.url}/api/sim`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        iccid,
        dataLimit: 1000,
        callAndSms: true,
        roaming: false,
        invoiceLineMark: '',
        invoiceLineNote: '',
      }),
    });
    expect(sim.status).toBe(200);
    const { id } = (await sim.json()) as { id: number };
    const page = await portal.loggedInPage(email, { js: false, width: 390 });
    await page.goto(`/sims/${id}`);
    // The actor in full, not cut at 20 characters ("API-nyckel Ordersyst…"), and the phone does not scroll sideways.
    const who = page.locator('table.history tbody tr td:nth-child(3)');
    await who.first().waitFor();
    expect(await who.allInnerTexts()).toContain('API-nyckel Ordersystemet');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'test-results/sim-history-api-key-390.png', fullPage: true });
    await page.goto('/company/activity?kind=simActivated');
    const row = page.getByRole('row').filter({ hasText: `Aktiverade ${iccid}` });
    expect(await row.getByText('API-nyckel Ordersystemet').count()).toBe(1);
    await page.goto('/company/activity?kind=apiKey');
    await page.getByText('Skapade API-nyckeln Ordersystemet (Skriv)').waitFor();
    await page.close();
  });

  it('answers 403 to a member, and the list is no-store', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    const res = await page.goto('/company/api-keys');
    expect(res?.status()).toBe(403);
    await page.close();
    const ownerEmail = await owner('cache');
    const cookie = await portal.server.sessionCookie(ownerEmail);
    const list = await fetch(`${portal.server.url}/company/api-keys`, { headers: { cookie } });
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toContain('no-store');
    await list.text();
  });
});
