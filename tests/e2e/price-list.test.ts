// "Se prislista för priser." (the spec's help of the plan form) links to the price list when the portal has one
// (PRICE_LIST_URL), JS on and off, on /add, /add/bulk and a SIM's page; the sentence reads exactly as the spec has it.
// Without the address the sentence stays plain text (tests/e2e/sims.test.ts).
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { newContext } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const PRICE_LIST = 'https://www.operator.example.se/foretag/prislista';
const portal = useScreens({ env: { PRICE_LIST_URL: PRICE_LIST } });

const HELPS = [
  'Kostnad tillkommer för tal & SMS. Se prislista för priser.',
  'Nationell & internationell roaming. Kostnad tillkommer för roaming. Se prislista för priser.',
];

describe('the price list link', () => {
  for (const js of [false, true]) {
    it(`is the word "prislista" of both helps on every plan form, JS ${js ? 'on' : 'off'}`, async () => {
      const sim = await portal.server.services.orm.em
        .fork()
        .findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: false } }, { orderBy: { id: 'asc' } });
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, { baseURL: portal.server.url, js, cookie });
      const page = await ctx.newPage();
      for (const path of ['/add', '/add/bulk', `/sims/${sim.id}`]) {
        await page.goto(path);
        // An amount chosen, so that the helps (not the "choose an amount first" texts) are the ones shown.
        await page.getByLabel('Datamängd', { exact: true }).selectOption({ index: 1 });
        const helps = page.locator('.plan-help');
        await expect
          .poll(() => helps.allTextContents(), { message: path })
          .toEqual(HELPS.map((h) => h.replace('prislista', 'prislista (öppnas i en ny flik)')));
        const links = page.locator('.plan-help').getByRole('link', { name: 'prislista (öppnas i en ny flik)' });
        expect(await links.count(), path).toBe(2);
        for (const link of await links.all()) {
          expect(await link.getAttribute('href')).toBe(PRICE_LIST);
          expect(await link.getAttribute('target')).toBe('_blank');
          expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
        }
        // What a sighted user reads is the spec's sentence, word for word.
        const seen = await helps.evaluateAll((ps) =>
          ps.map((p) => {
            const copy = p.cloneNode(true) as HTMLElement;
            copy.querySelectorAll('.visually-hidden').forEach((n) => n.remove());
            return copy.textContent;
          }),
        );
        expect(seen).toEqual(HELPS);
      }
      await ctx.close();
    });
  }
});
