// /admin/network ("Nätverksnycklar") and /admin/network/aside in a real Chromium, JS on and off, desktop and 390 px:
// a super admin creates a network key (a bad name refused next to the field, the value kept), sees it once (the
// copy button with JS), finds only its prefix in the list, and revokes it on the confirm page, after which the key
// is no live key; the records kept aside are listed newest first, 50 a page, a batch's records (one instant) split
// across pages without a loss or a repeat. A session without a recent step-up keeps what it typed and is told why.
import { describe, expect, it } from 'vitest';
import { NetworkKey, User } from '#server/db/entities.ts';
import { createNetworkKey, lookUpNetworkKey } from '#server/network/keys.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { look, ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { unknownIccid } from '#tests/helpers/usage.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const ADMIN = 'admin@demo.test';

describe('/admin/network', () => {
  for (const v of variants) {
    it(`creates a key shown once, lists it by prefix, revokes it (${v.tag})`, async () => {
      const page = await portal.loggedInPage(ADMIN, { js: v.js, width: v.width });
      await page.goto('/admin');
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Nätverksnycklar' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/network');
      await ready(page, v.js);
      await page.getByRole('heading', { name: 'Nätverksnycklar', level: 1 }).waitFor();

      // A name with a space: refused next to the field, what was typed kept.
      await page.getByLabel('Namn (källa)').fill('mediation ett');
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.locator('#network-name-error').waitFor();
      await ready(page, v.js);
      expect(await page.locator('#network-name-error').textContent()).toBe(
        'Ange ett namn med bokstäver, siffror och . _ : - (högst 100 tecken).',
      );
      expect(await page.getByLabel('Namn (källa)').inputValue()).toBe('mediation ett');
      expect(await page.getByLabel('Namn (källa)').getAttribute('aria-invalid')).toBe('true');

      const name = `mediation-${v.tag}`;
      await page.getByLabel('Namn (källa)').fill(name);
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.getByRole('heading', { name: 'Nätverksnyckeln är skapad' }).waitFor();
      await ready(page, v.js);
      await page.getByText('Kopiera nyckeln nu').waitFor();
      const key = await page.locator('#network-new-key').inputValue();
      expect(key).toMatch(/^sn_[A-Za-z0-9_-]{43}$/);
      const copy = page.getByRole('button', { name: 'Kopiera' });
      expect(await copy.count()).toBe(v.js ? 1 : 0);
      if (v.js) {
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
        await copy.click();
        await page.getByRole('button', { name: 'Kopierad' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      }
      await look(page, `network-created-${v.tag}`, v);
      // The key is a live network key, its name the source of its records.
      expect(await lookUpNetworkKey(em(), key)).toMatchObject({ kind: 'networkKey', name });

      // Shown once: the list afterwards has the prefix, never the key.
      await page.getByRole('link', { name: 'Till nätverksnycklarna' }).click();
      await page.getByRole('heading', { name: 'Nätverksnyckeln är skapad' }).waitFor({ state: 'detached' });
      await ready(page, v.js);
      const html = await page.content();
      expect(html).not.toContain(key);
      expect(html).toContain(key.slice(0, 11));
      const row = page.getByRole('row').filter({ hasText: name });
      expect(await row.getByText('Aktiv').count()).toBe(1);
      if (!v.width) expect(await row.getByText('Admin Demo').count()).toBe(1);
      await look(page, `network-list-${v.tag}`, v);

      // Revoke, through the confirm page; cancel first changes nothing.
      await row.getByRole('link', { name: `Återkalla ${name}` }).click();
      await page.waitForURL((u) => u.pathname.endsWith('/revoke'));
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Avbryt' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/network');
      await ready(page, v.js);
      expect(await lookUpNetworkKey(em(), key)).not.toBeNull();
      await row.getByRole('link', { name: `Återkalla ${name}` }).click();
      await page.waitForURL((u) => u.pathname.endsWith('/revoke'));
      await ready(page, v.js);
      await page.getByText(`Vill du återkalla ${name} (${key.slice(0, 11)}…)?`).waitFor();
      await look(page, `network-revoke-${v.tag}`, v);
      await page.getByRole('button', { name: 'Ja, återkalla' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/network');
      await ready(page, v.js);
      await page.getByText('Nätverksnyckeln är återkallad.').waitFor();
      expect(await row.getByText('Återkallad').count()).toBe(1);
      expect(await row.getByRole('link', { name: `Återkalla ${name}` }).count()).toBe(0);
      expect(await lookUpNetworkKey(em(), key)).toBeNull();
      // A revoked key's confirm page is no more.
      const again = await page.goto(`/admin/network/${(await em().findOneOrFail(NetworkKey, { name })).id}/revoke`);
      expect(again?.status()).toBe(404);
      await page.context().close();
    });
  }

  for (const js of [true, false]) {
    it(`without a recent step-up, keeps the name and says why, and makes no key (JS ${js ? 'on' : 'off'})`, async () => {
      const cookie = await portal.server.sessionCookie(ADMIN, { steppedUpAt: new Date(Date.now() - 11 * 60_000) });
      const context = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js,
        viewport: DESKTOP,
        cookie,
      });
      const page = await context.newPage();
      await page.goto('/admin/network');
      await ready(page, js);
      const name = `stale-${js ? 'js' : 'nojs'}`;
      await page.getByLabel('Namn (källa)').fill(name);
      await page.getByRole('button', { name: 'Skapa nyckel' }).click();
      await page.locator('.step-up-refused').waitFor();
      await ready(page, js);
      expect(await page.getByLabel('Namn (källa)').inputValue()).toBe(name);
      expect(await em().count(NetworkKey, { name })).toBe(0);
      await context.close();
    });
  }
});

describe('/admin/network/aside', () => {
  it('lists the records kept aside, newest received first, 50 a page, a batch split across pages', async () => {
    const start = Date.now() - 2 * 3_600_000;
    const record = (i: number) => ({
      recordId: `aside-${String(i).padStart(3, '0')}`,
      iccid: unknownIccid(i),
      start: new Date(start).toISOString(),
      end: new Date(start + 15 * 60_000).toISOString(),
      bytesUp: 1000 + i,
      bytesDown: 1_234_567 + i,
      network: '24001',
      country: 'SE',
    });
    // An older record first, then 59 in one batch: one instant of receipt for all of them.
    const older = await ingestUsage(em(), 'mediation-gammal', [record(0)], { now: new Date(Date.now() - 60_000) });
    expect(older.unknownIccid).toBe(1);
    const batch = await ingestUsage(
      em(),
      'mediation-e2e',
      Array.from({ length: 59 }, (_, i) => record(i + 1)),
    );
    expect(batch.unknownIccid).toBe(59);

    for (const v of variants) {
      const page = await portal.loggedInPage(ADMIN, { js: v.js, width: v.width });
      await page.goto('/admin/network');
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Poster som lagts åt sidan' }).click();
      await page.waitForURL((u) => u.pathname === '/admin/network/aside');
      await ready(page, v.js);
      await page.getByRole('heading', { name: 'Poster som lagts åt sidan', level: 1 }).waitFor();
      const rows = page.locator('tbody tr');
      expect(await rows.count()).toBe(50);
      const iccids = async () => rows.locator('code').allTextContents();
      const first = await iccids();
      // The batch's records (newest received) come first; within it, by source and record id, descending.
      expect(first[0]).toBe(unknownIccid(59));
      expect(await rows.first().textContent()).toContain('1\u00a0234\u00a0626');
      await look(page, `network-aside-${v.tag}`, v);

      await page.getByRole('link', { name: 'Äldre' }).click();
      await page.waitForURL((u) => u.searchParams.has('before'));
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Senaste' }).waitFor();
      const second = await iccids();
      expect(second).toHaveLength(10);
      // Every record once, the older one last.
      expect(new Set([...first, ...second]).size).toBe(60);
      expect(second.at(-1)).toBe(unknownIccid(0));
      expect(await page.getByRole('link', { name: 'Äldre' }).count()).toBe(0);
      if (!v.width) expect(await rows.last().textContent()).toContain('mediation-gammal');
      await look(page, `network-aside-older-${v.tag}`, v);

      // An edited page mark: the newest page, and why.
      await page.goto('/admin/network/aside?before=bm9wZQ');
      await ready(page, v.js);
      await page.getByText('Ogiltig sidmarkering').waitFor();
      expect(await rows.count()).toBe(50);
      await page.context().close();
    }
  });
});

describe('the light theme', () => {
  it('has no WCAG 2.1 AA violations on the three pages, at 1280 and 390 px', async () => {
    const admin = await em().findOneOrFail(User, { email: ADMIN });
    const { id } = await createNetworkKey(em(), { userId: admin.id, actingCompanyId: null }, { name: 'ljus-tema' });
    const cookie = await portal.server.sessionCookie(ADMIN);
    for (const viewport of [DESKTOP, MOBILE]) {
      const context = await newContext(portal.browser, {
        baseURL: portal.server.url,
        viewport,
        cookie,
        theme: 'light',
      });
      const page = await context.newPage();
      for (const path of ['/admin/network', '/admin/network/aside', `/admin/network/${id}/revoke`]) {
        await page.goto(path);
        await ready(page, true);
        expect(await page.locator('html').getAttribute('data-theme'), path).toBe('light');
        expect(await axeViolations(page), `${path} at ${viewport.width} px`).toEqual([]);
      }
      await context.close();
    }
  });
});
