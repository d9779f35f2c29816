// Long: the tags on the SIM page and on /sims are one feature, tested through the same seeded company.
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
const chips = (region: Locator) => region.locator('li > a').allInnerTexts();

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

describe('/sims with tags', () => {
  const LONG = 'Kylbilar i Göteborgsområdet, norra delen';
  let plain: number;
  beforeAll(async () => {
    const caller = await anna();
    // 60 more SIMs (more than a page), each a day older than the one before.
    const e = em();
    const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
    await e.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '8946577' || lpad(g::text, 13, '0'), ?,
              (select id from rate_plan where not is_legacy order by id limit 1),
              'Rad ' || g, '', 'active', now() - (g || ' days')::interval
         from generate_series(1, 60) g`,
      [demo.id],
    );
    for (let i = 1; i <= 3; i++) await simWith(`Lagerrad ${i}`, ['Lager']);
    // Every SIM of the company has two tags, one of them long (the rows must stay one line)...
    await caller.sim.tags({ q: '', add: ['Alla', LONG] });
    // ...but the newest, which has none: its row is the height a row had before tags.
    plain = await simWith('Ingen tagg', []);
  });

  /** The heights of the table's rows wholly in view, and how many there are. */
  const rowHeights = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('table.sims tbody tr')]
        .map((r) => r.getBoundingClientRect())
        .filter((b) => b.top >= 0 && b.bottom <= window.innerHeight)
        .map((b) => b.height),
    );

  for (const [i, v] of variants.entries()) {
    const theme = i % 2 === 0 ? 'dark' : 'light';
    it(`shows each row's tags on its line and filters by a tag, kept by search, sort and export (${v.tag}, ${theme})`, async () => {
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme,
      });
      const page = await ctx.newPage();
      await page.goto('/sims');
      await ready(page, v.js);
      const size = v.width ? '390' : 'desktop';
      await page.screenshot({ path: `test-results/sim-tags-list-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png` });
      // A row with tags is as tall as the one without (the newest, first); 15 rows fit on a 1280x800 screen.
      const heights = await rowHeights(page);
      expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(1);
      if (!v.width) expect(heights.length).toBeGreaterThanOrEqual(15);
      const first = page.locator('tbody tr').first();
      const href = (await first.locator('a.sims-open').getAttribute('href')) ?? '';
      expect(new URL(href, portal.server.url).pathname).toBe(`/sims/${plain}`);
      expect(await first.locator('.row-tag').count()).toBe(0);
      const second = page.locator('tbody tr').nth(1);
      expect(await second.locator('.row-tag').allInnerTexts()).toEqual(['Alla', LONG, 'Lager']);
      expect(await second.locator('.row-tags').getAttribute('title')).toBe(`Alla, ${LONG}, Lager`);
      await noSidewaysScroll(page);
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      // The filter: with JS a choice applies at once; without, the search's button sends it.
      const select = page.locator('select[name=tag]');
      expect(await select.locator('option').allInnerTexts()).toEqual(
        expect.arrayContaining(['Alla taggar', 'Alla', 'Lager', LONG]),
      );
      if (v.width) {
        // A phone shows the view's controls only for a view other than the default: a tag on a SIM's page leads
        // to its list.
        expect(await select.isVisible()).toBe(false);
        await page.locator('tbody tr', { hasText: 'Lagerrad 3' }).locator('a.sims-open').click();
        await page.waitForURL((u) => u.pathname !== '/sims');
        await page.getByRole('link', { name: 'SIM-kort med taggen Lager' }).click();
      } else {
        await select.selectOption('Lager');
        if (!v.js) await page.getByRole('button', { name: 'Sök', exact: true }).click();
      }
      await page.waitForURL((u) => u.searchParams.getAll('tag').join() === 'Lager');
      await ready(page, v.js);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
      for (const row of await page.locator('tbody tr').all())
        expect(await row.locator('.row-tag').allInnerTexts()).toContain('Lager');
      expect(await page.locator('select[name=tag]').inputValue()).toBe('Lager');
      expect(await page.locator('select[name=tag]').isVisible()).toBe(true);
      // The export and the sort carry the tag.
      for (const link of await page.locator('.sims-export a[href*="/export"]').all())
        expect(new URL((await link.getAttribute('href')) ?? '', portal.server.url).searchParams.get('tag')).toBe(
          'Lager',
        );
      const sort = page.getByRole('columnheader').getByRole('link').first();
      expect(new URL((await sort.getAttribute('href')) ?? '', portal.server.url).searchParams.get('tag')).toBe('Lager');

      // A search keeps the tag.
      await page.getByLabel('Sök bland SIM-kort').fill('Lagerrad 2');
      if (!v.js) await page.getByRole('button', { name: 'Sök', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'Lagerrad 2' && u.searchParams.get('tag') === 'Lager');
      await ready(page, v.js);
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      await noSidewaysScroll(page);
      await page.screenshot({
        path: `test-results/sim-tags-list-filtered-${v.js ? 'js' : 'nojs'}-${theme}-${size}.png`,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await ctx.close();
    });
  }

  it('keeps the tag on the pager', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto('/sims?tag=Alla');
    const next = page.getByRole('link', { name: 'Nästa' });
    expect(new URL((await next.getAttribute('href')) ?? '', portal.server.url).searchParams.getAll('tag')).toEqual([
      'Alla',
    ]);
    await next.click();
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    expect(await page.locator('select[name=tag]').inputValue()).toBe('Alla');
    for (const row of await page.locator('tbody tr').all())
      expect(await row.locator('.row-tag').allInnerTexts()).toContain('Alla');
    await page.context().close();
  });
});

describe('tags on the ticked SIMs of /sims', () => {
  for (const [i, v] of variants.entries()) {
    const theme = i % 2 === 0 ? 'light' : 'dark';
    it(`adds and removes a tag on the ticked rows, a bad one refused with the boxes kept (${v.tag}, ${theme})`, async () => {
      const mark = `Bulk ${v.tag}`;
      const ids = [await simWith(`${mark} 1`, []), await simWith(`${mark} 2`, []), await simWith(`${mark} 3`, [])];
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme,
      });
      const page = await ctx.newPage();
      await page.goto(`/sims?q=${encodeURIComponent(mark)}`);
      await ready(page, v.js);
      if (v.js) await page.locator('form[data-bulk-ready]').waitFor();
      expect(await page.locator('tbody tr').count()).toBe(3);
      const box = (n: number) => page.locator(`input[name=id][value="${ids[n]}"]`);
      const shelf = `Hylla ${v.tag}`;
      await box(0).check();
      await box(2).check();
      const field = page.locator('#bulk-tag');
      await field.fill(shelf);
      await page.screenshot({
        path: `test-results/sim-tags-bulk-${v.js ? 'js' : 'nojs'}-${theme}-${v.width ? '390' : 'desktop'}.png`,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Lägg till tagg' }).click();
      await expect.poll(() => tagsOf(ids[0] ?? 0)).toEqual([shelf]);
      await page.waitForURL((u) => u.searchParams.get('q') === mark);
      await ready(page, v.js);
      await expect.poll(() => page.locator('.row-tag', { hasText: shelf }).count()).toBe(2);
      expect(await tagsOf(ids[1] ?? 0)).toEqual([]);
      expect(await tagsOf(ids[2] ?? 0)).toEqual([shelf]);

      // Empty: refused by the field, what was ticked still ticked.
      await box(1).check();
      await page.locator('#bulk-tag').fill('');
      await page.getByRole('button', { name: 'Lägg till tagg' }).click();
      await page.locator('#bulk-tag-error').filter({ hasText: 'En tagg kan inte vara tom.' }).waitFor();
      expect(await box(1).isChecked()).toBe(true);
      expect(await page.locator('#bulk-tag').getAttribute('aria-invalid')).toBe('true');
      await noSidewaysScroll(page);
      await page.screenshot({
        path: `test-results/sim-tags-bulk-refused-${v.js ? 'js' : 'nojs'}-${theme}-${v.width ? '390' : 'desktop'}.png`,
      });
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      // Removed from the ticked rows.
      await box(0).check();
      await page.locator('#bulk-tag').fill(shelf);
      await page.getByRole('button', { name: 'Ta bort tagg' }).click();
      await expect.poll(() => tagsOf(ids[0] ?? 0)).toEqual([]);
      expect(await tagsOf(ids[2] ?? 0)).toEqual([shelf]);
      await ctx.close();
    });
  }
  it('tags every SIM of a search ("all that match", without JS)', async () => {
    const caller = await anna();
    const { total } = await caller.sim.page({ q: 'Rad', limit: 1 });
    expect(total).toBeGreaterThan(50);
    const page = await portal.loggedInPage('anna@demo.test', { js: false });
    await page.goto('/sims?q=Rad&all=matching');
    await page.locator('#bulk-tag').fill('Raderna');
    await page.getByRole('button', { name: 'Lägg till tagg' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'Rad' && !u.searchParams.has('all'));
    const tagged = await caller.sim.page({ q: 'Rad', tag: ['Raderna'], limit: 1 });
    expect(tagged.total).toBe(total);
    expect((await caller.sim.page({ q: '', tag: ['Raderna'], limit: 1 })).total).toBe(total);
    await page.context().close();
  });

  it('says so on the SIM page when a SIM has as many tags as it may', async () => {
    const id = await simWith(
      'Full',
      Array.from({ length: 20 }, (_, n) => `T${n}`),
    );
    await (await anna()).sim.tags({ ids: [id], add: Array.from({ length: 10 }, (_, n) => `U${n}`) });
    const page = await portal.loggedInPage('anna@demo.test', { js: false, width: 390 });
    await page.goto(`/sims/${id}`);
    await page.locator('#sim-tag').fill('En till');
    await page.getByRole('button', { name: 'Lägg till' }).click();
    await page.locator('#sim-tag-error').filter({ hasText: 'SIM-kortet har redan 30 taggar' }).waitFor();
    expect(await page.locator('#sim-tag').inputValue()).toBe('En till');
    expect(await tagsOf(id)).toHaveLength(30);
    await page.context().close();
  });
});
