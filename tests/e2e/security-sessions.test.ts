// /security/sessions ("Inloggningar") in a real Chromium, JS on and off, desktop and 390 px: a user signed in on two
// browsers sees both (this one marked), ends the other (signed out at once: its event stream closes, its next page is
// the login), then ends all others, and last logs out this device (on to /login).
import { describe, expect, it } from 'vitest';
import { Company, Passkey, User } from '#server/db/entities.ts';
import { newContext } from '#tests/helpers/browser.ts';
import { look, ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { openStream } from '#tests/helpers/sse.ts';

const portal = useScreens();

const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

async function newUser(tag: string): Promise<string> {
  const em = portal.server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  const email = `inloggad.${tag.toLowerCase()}@demo.test`;
  em.create(User, { name: `Inloggad ${tag}`, email, company: demo, role: 'member' });
  await em.flush();
  return email;
}

const signedIn = async (cookie: string) =>
  (await fetch(`${portal.server.url}/api/sessions`, { headers: { cookie } })).status === 200;

describe('/security/sessions', () => {
  for (const v of variants) {
    it(`lists the user's sessions, ends the other one at once, then all others, then this one (${v.tag})`, async () => {
      const email = await newUser(v.tag);
      const viewport = v.width ? { width: v.width, height: 844 } : undefined;
      const mine = await portal.server.sessionCookie(email, { ip: '198.51.100.7' });
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: v.js, viewport, cookie: mine });
      const page = await ctx.newPage();
      // The other browser: signed in elsewhere, with its event stream open.
      const other = await portal.server.sessionCookie(email, { userAgent: FIREFOX_WIN, ip: '203.0.113.9' });
      const tab = await openStream(portal.server.url, other);
      await tab.waitFor(/connected/);

      await page.goto('/security/sessions');
      await ready(page, v.js);
      await page.getByRole('heading', { name: 'Inloggningar', level: 2 }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Säkerhet' }).getByRole('link').allTextContents()).toEqual([
        'Inloggningsnycklar',
        'Inloggningar',
      ]);
      const rows = page.locator('.sessions-table tbody tr');
      expect(await rows.count()).toBe(2);
      const here = page.locator('tr[aria-current="true"]');
      expect(await here.getByText('Den här enheten').count()).toBe(1);
      const firefox = rows.filter({ hasText: 'Firefox 133 på Windows 10' });
      expect(await firefox.count()).toBe(1);
      // The address and how it signed in are shown (on a phone under the browser's name).
      expect(await firefox.innerText()).toMatch(/203\.0\.113\.9[\s\S]*med inloggningsnyckel/);
      // Usable at 390 px: nothing wider than the screen.
      if (v.width === 390)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await look(page, `security-sessions-${v.tag}`, v);

      await firefox.getByRole('button', { name: 'Logga ut Firefox 133 på Windows 10' }).click();
      await page.getByRole('status').filter({ hasText: 'Inloggningen är utloggad.' }).waitFor();
      await ready(page, v.js);
      // Signed out at once: its stream closed, its cookie is no session any more.
      await expect.poll(() => tab.closed(), { timeout: 5000, message: 'stream not closed' }).toBe(true);
      expect(await signedIn(other)).toBe(false);
      expect(await rows.count()).toBe(1);
      expect(await page.getByText('Inga andra inloggningar.').count()).toBe(1);
      const otherCtx = await newContext(portal.browser, { baseURL: portal.server.url, js: v.js, cookie: other });
      const otherPage = await otherCtx.newPage();
      await otherPage.goto('/security/sessions');
      expect(new URL(otherPage.url()).pathname).toBe('/login');
      await otherCtx.close();

      // Two more elsewhere: "Logga ut alla andra" ends both and keeps this one.
      const more = [
        await portal.server.sessionCookie(email, { userAgent: SAFARI_IPHONE }),
        await portal.server.sessionCookie(email, { userAgent: FIREFOX_WIN }),
      ];
      await page.reload();
      await ready(page, v.js);
      expect(await rows.count()).toBe(3);
      await page.getByRole('button', { name: 'Logga ut alla andra' }).click();
      await page.getByRole('status').filter({ hasText: '2 inloggningar är utloggade.' }).waitFor();
      await ready(page, v.js);
      expect(await rows.count()).toBe(1);
      for (const c of more) expect(await signedIn(c)).toBe(false);
      expect(await signedIn(mine)).toBe(true);

      // This device: logged out, on to the login page.
      await here.getByRole('button', { name: /^Logga ut/ }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(await signedIn(mine)).toBe(false);
      await ctx.close();
    });
  }

  it('sends a signed-out visitor to the login page and back here after', async () => {
    const res = await fetch(`${portal.server.url}/security/sessions`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fsecurity%2Fsessions');
  });
});

describe("a super admin on a user's page: Inloggningar and Återställ nycklar", () => {
  for (const js of [true, false]) {
    it(`ends a session (the step-up asked first) and resets the passkeys after a confirm (${js ? 'JS' : 'no JS'})`, async () => {
      const tag = js ? 'AdminJS' : 'AdminNoJS';
      const email = await newUser(tag);
      const em = portal.server.services.orm.em.fork();
      const user = await em.findOneOrFail(User, { email });
      em.create(Passkey, {
        user,
        credentialId: `cred-${tag}`,
        publicKey: 'pk',
        counter: 0,
        transports: [],
        deviceType: 'multiDevice',
        backedUp: true,
        name: 'Telefon',
      });
      await em.flush();
      const theirs = await portal.server.sessionCookie(email, { userAgent: FIREFOX_WIN });
      const path = `/admin/companies/${user.company.id}/${user.id}`;

      // Not stepped up: the end is refused with the step-up message, the session stays.
      const stale = await portal.server.sessionCookie('admin@demo.test', { steppedUp: false });
      const staleCtx = await newContext(portal.browser, { baseURL: portal.server.url, js, cookie: stale });
      const stalePage = await staleCtx.newPage();
      await stalePage.goto(path);
      await ready(stalePage, js);
      const section = stalePage.getByRole('region', { name: 'Inloggningar' });
      await section.getByRole('button', { name: 'Logga ut Firefox 133 på Windows 10' }).click();
      await stalePage
        .getByRole('alert')
        .filter({ hasText: 'Bekräfta att det är du med din inloggningsnyckel' })
        .waitFor();
      expect(await signedIn(theirs)).toBe(true);
      await staleCtx.close();

      const admin = await portal.server.sessionCookie('admin@demo.test');
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js, cookie: admin });
      const page = await ctx.newPage();
      await page.goto(path);
      await ready(page, js);
      const sessions = page.getByRole('region', { name: 'Inloggningar' });
      expect(await sessions.locator('tbody tr').count()).toBe(1);
      await look(page, `admin-user-sessions-${js ? 'JS' : 'noJS'}`, { js });
      await sessions.getByRole('button', { name: 'Logga ut Firefox 133 på Windows 10' }).click();
      await page.getByRole('status').filter({ hasText: 'Inloggningen är utloggad.' }).waitFor();
      await ready(page, js);
      expect(await signedIn(theirs)).toBe(false);
      expect(await sessions.getByText('Användaren är inte inloggad någonstans.').count()).toBe(1);

      // Återställ nycklar: a confirm step first, then the passkeys and every session are gone.
      const again = await portal.server.sessionCookie(email);
      const reset = page.getByRole('region', { name: 'Återställ inloggningsnycklar' });
      expect(await reset.getByText('Användaren har 1 inloggningsnyckel.').count()).toBe(1);
      await reset.getByRole('button', { name: 'Återställ inloggningsnycklar' }).click();
      await reset.getByText(`Vill du återställa inloggningsnycklarna för Inloggad ${tag}?`).waitFor();
      await ready(page, js);
      await look(page, `admin-user-reset-${js ? 'JS' : 'noJS'}`, { js });
      expect(await portal.server.services.orm.em.fork().count(Passkey, { user: user.id })).toBe(1);
      await reset.getByRole('button', { name: 'Ja, återställ inloggningsnycklarna' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Inloggningsnycklar är återställda: 1 inloggningsnyckel borttagen, 1 inloggning utloggad.' })
        .waitFor();
      await ready(page, js);
      expect(await portal.server.services.orm.em.fork().count(Passkey, { user: user.id })).toBe(0);
      expect(await signedIn(again)).toBe(false);
      expect(await reset.getByText('Användaren har 0 inloggningsnycklar.').count()).toBe(1);
      await ctx.close();
    });
  }
});
