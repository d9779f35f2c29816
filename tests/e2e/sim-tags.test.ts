// SIM tags on the screens (issue 40) in a real Chromium, JS on and off, at 1280 and 390 px, dark and light: the SIM
// page shows its tags as chips, adds one (the company's tags offered in the field's list) and removes one, each by a
// plain form post; an empty or too long tag is refused next to the field with what was typed kept; a viewer sees the
// tags without the controls. Axe at 0 with JS, no sideways scroll, screenshots to look at.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { callerFor } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946589');

const activation = { dataLimit: 1000, callAndSms: false, roaming: false, invoiceLineNote: '' };

async function anna() {
  return callerFor(portal.server.services, 'anna@demo.test');
}

/** A new SIM of the demo company with these tags. */
async function simWith(mark: string, tags: string[]): Promise<number> {
  const caller = await anna();
  const { id } = await caller.sim.activate({ ...activation, invoiceLineMark: mark, iccid: newIccid() });
  if (tags.length) await caller.sim.tags({ ids: [id], add: tags });
  return id;
}

const tagsOf = async (id: number) => (await (await anna()).sim.byId({ id })).tags;

/** The chips' texts (each chip's list item also holds its remove button). */
const chips = (region: Locator) => region.locator('li > span').allInnerTexts();

async function noSidewaysScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner ?? 0);
}

beforeAll(async () => {
  // A tag of the company that the SIMs under test do not have: the add field offers it.
  await simWith('Kyld', ['Kylbilar']);
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  e.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: demo, role: 'viewer' });
  await e.flush();
});

describe("the SIM page's tags", () => {
  for (const [i, v] of variants.entries()) {
    const theme = i % 2 === 0 ? 'light' : 'dark';
    it(`shows, adds and removes tags, and refuses a bad one with what was typed (${v.tag}, ${theme})`, async () => {
      const id = await simWith(`Taggad ${v.tag}`, ['Göteborg', 'Test']);
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme,
      });
      const page = await ctx.newPage();
      await page.goto(`/sims/${id}`);
      await ready(page, v.js);
      const tags = page.getByRole('region', { name: 'Taggar' });
      expect(await chips(tags)).toEqual(['Göteborg', 'Test']);
      // The company's other tag is offered; the SIM's own are not.
      expect(
        await page.locator('#company-tags option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
      ).toEqual(['Kylbilar']);
      const field = tags.getByLabel('Ny tagg');
      expect(await field.getAttribute('maxlength')).toBe('40');
      expect(await field.getAttribute('list')).toBe('company-tags');

      // Added: a new chip, the field empty again, the SIM has it.
      await field.fill('  Kylbilar ');
      await tags.getByRole('button', { name: 'Lägg till' }).click();
      await tags.getByText('Kylbilar', { exact: true }).waitFor();
      await ready(page, v.js);
      expect(await chips(tags)).toEqual(['Göteborg', 'Kylbilar', 'Test']);
      expect(await tags.getByLabel('Ny tagg').inputValue()).toBe('');
      expect(await tagsOf(id)).toEqual(['Göteborg', 'Kylbilar', 'Test']);

      // Empty: refused next to the field, in the summary too; nothing changed.
      await tags.getByRole('button', { name: 'Lägg till' }).click();
      await tags.getByText('En tagg kan inte vara tom.').first().waitFor();
      expect(await page.locator('#sim-tag-error').innerText()).toBe('En tagg kan inte vara tom.');
      expect(await page.locator('#sim-tag').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('alert').filter({ hasText: 'En tagg kan inte vara tom.' }).count()).toBe(1);

      // Too long (past the field's maxlength, as a script or an old browser can send it): refused, kept as typed.
      const long = 'Å'.repeat(41);
      await page.locator('#sim-tag').evaluate((el, text) => {
        el.removeAttribute('maxlength');
        (el as HTMLInputElement).value = text;
      }, long);
      await tags.getByRole('button', { name: 'Lägg till' }).click();
      await page.locator('#sim-tag-error').filter({ hasText: 'En tagg får vara högst 40 tecken.' }).waitFor();
      expect(await page.locator('#sim-tag').inputValue()).toBe(long);
      expect(await tagsOf(id)).toEqual(['Göteborg', 'Kylbilar', 'Test']);
      await noSidewaysScroll(page);
      const size = v.width ? '390' : 'desktop';
      await page.screenshot({ path: `test-results/sim-tags-refused-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png` });
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      // Removed by its own button.
      await tags.getByRole('button', { name: 'Ta bort taggen Göteborg' }).click();
      await page.waitForFunction(() => !document.querySelector('[aria-label="Ta bort taggen Göteborg"]'));
      await ready(page, v.js);
      expect(await chips(tags)).toEqual(['Kylbilar', 'Test']);
      expect(await tagsOf(id)).toEqual(['Kylbilar', 'Test']);
      // What the SIM has is not offered.
      const offered = await page
        .locator('#company-tags option')
        .evaluateAll((o) => o.map((x) => x.getAttribute('value')));
      expect(offered.filter((tag) => tag === 'Kylbilar' || tag === 'Test')).toEqual([]);
      await noSidewaysScroll(page);
      await tags.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/sim-tags-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png` });
      await page.screenshot({
        path: `test-results/sim-tags-full-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png`,
        fullPage: true,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await ctx.close();
    });
  }

  it('shows a SIM without tags as such, and a viewer the tags without the controls', async () => {
    const bare = await simWith('Utan taggar', []);
    const tagged = await simWith('Med taggar', ['Göteborg']);
    const page = await portal.loggedInPage('anna@demo.test', { js: false, width: 390 });
    await page.goto(`/sims/${bare}`);
    const tags = page.getByRole('region', { name: 'Taggar' });
    await tags.getByText('Inga taggar än.').waitFor();
    await page.context().close();

    const vera = await portal.loggedInPage('vera@demo.test', { js: true, width: 390 });
    await vera.goto(`/sims/${tagged}`);
    await ready(vera, true);
    const seen = vera.getByRole('region', { name: 'Taggar' });
    expect(await chips(seen)).toEqual(['Göteborg']);
    expect(await seen.getByRole('button').count()).toBe(0);
    expect(await seen.getByRole('textbox').count()).toBe(0);
    expect(await axeViolations(vera)).toEqual([]);
    await vera.context().close();
  });
});
