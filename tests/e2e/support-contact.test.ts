// "Kontakta supporten" names the support's address (SUPPORT_EMAIL) as a mail link, without JavaScript too: on the
// login page, on the page of a login link that no longer works, and on a SIM with a legacy plan.
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { MOBILE, newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ env: { SUPPORT_EMAIL: 'hjalp@sim.example.se' } });

describe('the support address', () => {
  for (const path of ['/login', '/auth/magic?token=not-a-real-token']) {
    it(`is a mail link in the sign-up sentence of ${path}, JS off, on a phone`, async () => {
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false, viewport: MOBILE });
      const page = await ctx.newPage();
      await page.goto(path);
      const sentence = page.locator('p', { hasText: 'Har du inget konto?' });
      expect(await sentence.innerText()).toBe(
        'Har du inget konto? Kontakta supporten på hjalp@sim.example.se för att registrera ett konto.',
      );
      const link = sentence.getByRole('link', { name: 'hjalp@sim.example.se' });
      expect(await link.getAttribute('href')).toBe('mailto:hjalp@sim.example.se');
      // Still readable on a phone: the address does not push the page sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      await ctx.close();
    });
  }

  it('is a mail link in the notice of a SIM on a legacy plan, JS off', async () => {
    const legacy = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js: false, cookie });
    const page = await ctx.newPage();
    await page.goto(`/sims/${legacy.id}`);
    const notice = page.getByRole('status').filter({ hasText: 'äldre abonnemang' });
    expect(await notice.innerText()).toBe(
      'Det här SIM-kortet har ett äldre abonnemang och kan inte redigeras här. Kontakta supporten på ' +
        'hjalp@sim.example.se för att säga upp det.',
    );
    expect(await notice.getByRole('link').getAttribute('href')).toBe('mailto:hjalp@sim.example.se');
    await ctx.close();
  });
});
