// The lasting header of the signed-in pages: the sections each role may open (the current one marked), the phone's
// folded menu and the user's menu as <details> that work without JavaScript, logging out from that menu, and a long
// company name a super admin acts as kept to one line on a phone. Not shown while signing in.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Company, Sim } from '#server/db/entities.ts';
import { MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const sectionsOf = (page: Page) =>
  page.getByRole('navigation', { name: 'Huvudnavigering' }).getByRole('link').allInnerTexts();

describe('the header', () => {
  it.each([
    ['anna@demo.test', 'a member', ['SIM-kort', 'Förbrukning', 'Aktivera', 'Export']],
    ['ella@demo.test', 'an owner', ['SIM-kort', 'Förbrukning', 'Aktivera', 'Export', 'Mitt företag']],
    ['admin@demo.test', 'a super admin', ['SIM-kort', 'Förbrukning', 'Aktivera', 'Export', 'Admin']],
  ])('shows %s (%s) the sections of the role, the current one marked', async (email, _who, sections) => {
    const page = await portal.loggedInPage(email, { js: false });
    await page.goto('/');
    expect(await sectionsOf(page)).toEqual(sections);
    expect(await page.locator('header [aria-current="page"]').count()).toBe(0);
    const sim = await portal.server.services.orm.em.fork().findOneOrFail(Sim, { status: 'active' });
    await page.goto(`/sims/${sim.id}`);
    const current = page.getByRole('navigation', { name: 'Huvudnavigering' }).locator('[aria-current="page"]');
    expect(await current.allInnerTexts()).toEqual(['SIM-kort']);
    // The user's menu holds Säkerhet and Logga ut, folded until opened.
    const logout = page.locator('header').getByRole('button', { name: 'Logga ut' });
    expect(await logout.isVisible()).toBe(false);
    await page.locator('header .usermenu summary').click();
    expect(await logout.isVisible()).toBe(true);
    await page.locator('header').getByRole('link', { name: 'Säkerhet' }).click();
    await page.waitForURL((u) => u.pathname === '/security', { timeout: 30_000 });
    await page.context().close();
  });

  for (const js of [false, true]) {
    it(`folds the sections into "Meny" on a phone and logs out from the user's menu (JS ${js ? 'on' : 'off'})`, async () => {
      const cookie = await portal.server.sessionCookie('ella@demo.test');
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js, viewport: MOBILE, cookie });
      const page = await ctx.newPage();
      await page.goto('/sims');
      if (js) await page.waitForFunction(() => '__remixRouter' in window, null, { timeout: 30_000 });
      const nav = page.getByRole('navigation', { name: 'Huvudnavigering' });
      // Folded: no section link to see, the company on one line beside the portal's name.
      expect(await nav.count()).toBe(0);
      const company = page.locator('header .header-company');
      expect(await company.innerText()).toContain('Demo AB');
      expect(await company.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(30);
      const menu = page.locator('header .appnav-narrow summary');
      expect(await menu.innerText()).toBe('Meny');
      await menu.click();
      expect(await sectionsOf(page)).toEqual(['SIM-kort', 'Förbrukning', 'Aktivera', 'Export', 'Mitt företag']);
      await nav.getByRole('link', { name: 'Mitt företag' }).click();
      await page.waitForURL((u) => u.pathname === '/company', { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Mitt företag', level: 1 }).waitFor({ timeout: 30_000 });
      // After the navigation the menu is folded again (a new document without JS; closed by the header with JS).
      expect(await page.getByRole('navigation', { name: 'Huvudnavigering' }).count()).toBe(0);
      // Nothing reaches past the screen's edge.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);

      const user = page.locator('header .usermenu summary');
      expect(await user.textContent()).toContain('Ella Ägare, användarmeny');
      await user.click();
      await page.locator('header').getByRole('button', { name: 'Logga ut' }).click();
      await page.waitForURL((u) => u.pathname === '/login', { timeout: 30_000 });
      const session = await fetch(`${portal.server.url}/auth/session`, { headers: { cookie } });
      expect(await session.json()).toMatchObject({ authenticated: false });
      await ctx.close();
    });
  }

  it('shows a company a super admin acts as whole on a phone, a long one in two lines, and "Tillbaka" works without JS', async () => {
    const em = portal.server.services.orm.em.fork();
    const name = `Ett mycket långt företagsnamn ${'Långnamn '.repeat(20)}AB`.slice(0, 200);
    const company = em.create(Company, { name, customerNumber: 'HDR-1', invoiceNote: '' });
    await em.flush();
    const cookie = await portal.server.sessionCookie('admin@demo.test', { actingCompanyId: company.id });
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false, viewport: MOBILE, cookie });
    const page = await ctx.newPage();
    await page.goto('/sims');
    const acting = page.locator('header .acting-name');
    expect(await acting.getAttribute('title')).toBe(`Du agerar som ${name}`);
    const boxOf = () =>
      acting.evaluate((el) => ({
        lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
        cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
        headerHeight: el.closest('header')?.getBoundingClientRect().height ?? 0,
      }));
    const box = await boxOf();
    expect(box).toMatchObject({ lines: 2, cut: true });
    // The header with the acting line stays small: the name bar and two lines.
    expect(box.headerHeight).toBeLessThan(130);
    // An ordinary name is whole: "Du agerar som Demo AB", not "Du agerar som D…".
    const demo = await portal.server.sessionCookie('admin@demo.test', {
      actingCompanyId: (await em.findOneOrFail(Company, { customerNumber: '100001' })).id,
    });
    const demoCtx = await newContext(portal.browser, {
      baseURL: portal.server.url,
      js: false,
      viewport: MOBILE,
      cookie: demo,
    });
    const demoPage = await demoCtx.newPage();
    await demoPage.goto('/sims');
    const demoActing = demoPage.locator('header .acting-name');
    expect(await demoActing.innerText()).toBe('Du agerar som Demo AB');
    expect(
      await demoActing.evaluate((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1),
    ).toBe(false);
    await demoCtx.close();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.getByRole('button', { name: 'Tillbaka till eget företag' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 30_000 });
    expect(await page.locator('header .acting').count()).toBe(0);
    await ctx.close();
  });

  it('is not shown while signing in: only the name and the theme on the login and passkey pages', async () => {
    const anon = await newContext(portal.browser, { baseURL: portal.server.url, js: false });
    const pending = await newContext(portal.browser, {
      baseURL: portal.server.url,
      js: false,
      cookie: await portal.server.sessionCookie('anna@demo.test', { stage: 'passkey' }),
    });
    for (const [ctx, path] of [
      [anon, '/login'],
      [pending, '/login/passkey'],
    ] as const) {
      const page = await ctx.newPage();
      await page.goto(path);
      await page.waitForURL((u) => u.pathname === path, { timeout: 30_000 });
      expect(await page.locator('header details').count(), path).toBe(0);
      expect(await page.locator('header nav').count(), path).toBe(0);
      expect(await page.locator('header').getByRole('link', { name: 'SIM-portalen' }).count(), path).toBe(1);
      expect(
        await page
          .locator('header')
          .getByRole('button', { name: /Ljust tema/ })
          .count(),
        path,
      ).toBe(1);
      await ctx.close();
    }
  });
});
