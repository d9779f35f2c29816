// The company's tags page, /sims/tags (issue 40), in a real Chromium, JS on and off, at 1280 and 390 px, dark: reached
// from /sims' "Hantera taggar", it lists the tags in text order (each a link to /sims filtered by it); a member with
// write rights renames one (to a new name, and into an existing tag: a merge) and deletes one after a confirmation,
// each answered with a result line of the SIMs changed and (with JS, without a reload) the server's toast; a refused
// name stands next to its field with what was typed. A viewer sees the list without the forms, and the procedures
// refuse a viewer's post. Axe at 0 with JS, no sideways scroll, screenshots to look at.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { axeViolations, DESKTOP, MOBILE, newContext } from '#tests/helpers/browser.ts';
import { ready, screenVariants as variants } from '#tests/helpers/company.ts';
import { callerFor } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946592');

const activation = { dataLimit: 1000, callAndSms: false, roaming: false, invoiceLineNote: '' };

const anna = () => callerFor(portal.server.services, 'anna@demo.test');

async function simWith(mark: string, tags: string[]): Promise<number> {
  const caller = await anna();
  const { id } = await caller.sim.activate({ ...activation, invoiceLineMark: mark, iccid: newIccid() });
  if (tags.length) await caller.sim.tags({ ids: [id], add: tags });
  return id;
}

const tagsOf = async (id: number) => (await (await anna()).sim.byId({ id })).tags;

/** The names of the page's tags, in the order shown. */
const names = (page: Page) => page.locator('.tags-page-name').allInnerTexts();

async function noSidewaysScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner ?? 0);
}

/** A mark on the window: still there after an answer means the page was not loaded again. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { tagsMark: number }).tagsMark = 1));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { tagsMark?: number }).tagsMark === 1);

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  e.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: demo, role: 'viewer' });
  await e.flush();
});

describe('the tags page', () => {
  for (const v of variants) {
    it(`lists, renames, merges and deletes the company's tags (${v.tag})`, async () => {
      // Tags of this run's own (the company is shared by the variants): P Norr, P Syd, P Öst.
      const P = `T${v.tag}`;
      const a = await simWith(`${P} a`, [`${P} Norr`, `${P} Syd`]);
      const b = await simWith(`${P} b`, [`${P} Norr`]);
      const c = await simWith(`${P} c`, [`${P} Syd`, `${P} Öst`]);
      const cookie = await portal.server.sessionCookie('anna@demo.test');
      const ctx = await newContext(portal.browser, {
        baseURL: portal.server.url,
        js: v.js,
        viewport: v.width ? MOBILE : DESKTOP,
        cookie,
        theme: 'dark',
      });
      const page = await ctx.newPage();
      const size = v.width ? '390' : 'desktop';
      const shot = (name: string) =>
        page.screenshot({ path: `test-results/tags-page-${name}-${v.js ? 'js' : 'nojs'}-${size}.png`, fullPage: true });

      // From /sims: the link beside the export links.
      await page.goto(v.width ? `/sims?${new URLSearchParams({ tag: `${P} Norr` })}` : '/sims');
      await ready(page, v.js);
      await page.getByRole('link', { name: 'Hantera taggar' }).click();
      await page.waitForURL((u) => u.pathname === '/sims/tags');
      await ready(page, v.js);
      await page.getByRole('heading', { name: 'Taggar', level: 1 }).waitFor();
      const mine = async () => (await names(page)).filter((n) => n.startsWith(P));
      expect(await mine()).toEqual([`${P} Norr`, `${P} Syd`, `${P} Öst`]);
      expect(await page.getByRole('link', { name: `Visa SIM-kort med taggen ${P} Syd` }).getAttribute('href')).toBe(
        `/sims?${new URLSearchParams({ tag: `${P} Syd` })}`,
      );
      await page.getByText('slås taggarna ihop').waitFor();
      await noSidewaysScroll(page);
      await shot('list');
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      if (v.js) await mark(page);

      const field = (tag: string) => page.getByLabel(`Nytt namn för taggen ${tag}`);
      const rename = (tag: string) => page.getByRole('button', { name: `Byt namn för taggen ${tag}` });

      // Refused: the same name, then an empty one; the message next to the field, what was typed kept.
      await field(`${P} Norr`).fill(`  ${P} Norr `);
      await rename(`${P} Norr`).click();
      await page.getByText('Ange ett annat namn än det nuvarande.').waitFor();
      expect(await field(`${P} Norr`).inputValue()).toBe(`  ${P} Norr `);
      expect(await field(`${P} Norr`).getAttribute('aria-invalid')).toBe('true');
      await field(`${P} Norr`).fill('   ');
      await rename(`${P} Norr`).click();
      await page.getByText('En tagg kan inte vara tom.').waitFor();
      const error = page.locator('.tags-page-row', { hasText: `${P} Norr` }).locator('p.error');
      expect(await error.innerText()).toBe('En tagg kan inte vara tom.');
      expect(await field(`${P} Norr`).inputValue()).toBe('   ');
      await noSidewaysScroll(page);
      await shot('refused');
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      expect(await tagsOf(b)).toEqual([`${P} Norr`]);

      // Renamed to a new name: the result line with the count, the toast, the list in its new order.
      await field(`${P} Öst`).fill(`${P} Väst`);
      await rename(`${P} Öst`).click();
      const renamed = `Taggen ”${P} Öst” heter nu ”${P} Väst”. På 1 SIM-kort.`;
      await page.locator('.tags-page-result').filter({ hasText: renamed }).waitFor();
      if (v.js)
        await page
          .locator('.toast')
          .filter({ hasText: `Taggen ”${P} Öst” heter nu ”${P} Väst”` })
          .waitFor();
      await page.waitForFunction(
        (p) => ![...document.querySelectorAll('.tags-page-name')].some((n) => n.textContent === `${p} Öst`),
        P,
      );
      expect(await mine()).toEqual([`${P} Norr`, `${P} Syd`, `${P} Väst`]);
      expect(await tagsOf(c)).toEqual([`${P} Syd`, `${P} Väst`]);
      // No message left by the field that was refused.
      expect(
        await page
          .locator('.tags-page-row', { hasText: `${P} Norr` })
          .locator('p.error')
          .count(),
      ).toBe(0);

      // Merged into an existing tag: a SIM that had both keeps one; both SIMs counted.
      await field(`${P} Norr`).fill(`${P} Syd`);
      await rename(`${P} Norr`).click();
      await page
        .locator('.tags-page-result')
        .filter({ hasText: `Taggen ”${P} Norr” heter nu ”${P} Syd”. På 2 SIM-kort.` })
        .waitFor();
      await page.waitForFunction(
        (p) => ![...document.querySelectorAll('.tags-page-name')].some((n) => n.textContent === `${p} Norr`),
        P,
      );
      expect(await mine()).toEqual([`${P} Syd`, `${P} Väst`]);
      expect(await tagsOf(a)).toEqual([`${P} Syd`]);
      expect(await tagsOf(b)).toEqual([`${P} Syd`]);
      await noSidewaysScroll(page);
      await shot('renamed');
      if (v.js) expect(await axeViolations(page)).toEqual([]);

      // Deleted after a confirmation: asked first (in place with JS, a second step without), cancel asks nothing.
      const del = page.getByRole('link', { name: `Ta bort taggen ${P} Syd` });
      const question = page.getByText(`Ta bort taggen ”${P} Syd” från alla SIM-kort som har den?`);
      await del.click();
      await question.waitFor();
      if (!v.js) expect(new URL(page.url()).searchParams.get('confirm')).toBe(`${P} Syd`);
      await page.getByRole('link', { name: 'Avbryt' }).click();
      await question.waitFor({ state: 'hidden' });
      expect(await tagsOf(a)).toEqual([`${P} Syd`]);
      await del.click();
      await question.waitFor();
      await noSidewaysScroll(page);
      await shot('confirm');
      if (v.js) expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Ja, ta bort' }).click();
      await page
        .locator('.tags-page-result')
        .filter({ hasText: `Taggen ”${P} Syd” är borttagen. På 3 SIM-kort.` })
        .waitFor();
      if (v.js)
        await page
          .locator('.toast')
          .filter({ hasText: `Taggen ”${P} Syd” är borttagen` })
          .waitFor();
      await page.waitForFunction(
        (p) => ![...document.querySelectorAll('.tags-page-name')].some((n) => n.textContent === `${p} Syd`),
        P,
      );
      expect(await mine()).toEqual([`${P} Väst`]);
      expect(await tagsOf(a)).toEqual([]);
      expect(await tagsOf(b)).toEqual([]);
      expect(await tagsOf(c)).toEqual([`${P} Väst`]);
      await noSidewaysScroll(page);
      await shot('deleted');
      if (v.js) {
        expect(await axeViolations(page)).toEqual([]);
        // Every answer came through the fetcher: the page was never loaded again.
        expect(await marked(page)).toBe(true);
      }
      await ctx.close();
    });
  }

  it('shows a viewer the tags without the forms, and the procedures refuse a viewer’s post', async () => {
    await simWith('Visad', ['Synlig']);
    for (const js of [true, false]) {
      const page = await portal.loggedInPage('vera@demo.test', { js, width: 390 });
      await page.goto(`/sims/tags?${new URLSearchParams({ confirm: 'Synlig' })}`);
      await ready(page, js);
      expect(await names(page)).toContain('Synlig');
      await page.getByText('Du kan se taggarna men inte ändra dem.').waitFor();
      const list = page.getByRole('list', { name: 'Företagets taggar' });
      expect(await list.getByRole('textbox').count()).toBe(0);
      expect(await list.getByRole('button').count()).toBe(0);
      expect(await list.getByRole('link', { name: /^Ta bort/ }).count()).toBe(0);
      await noSidewaysScroll(page);
      await page.screenshot({ path: `test-results/tags-page-viewer-${js ? 'js' : 'nojs'}-390.png`, fullPage: true });
      if (js) expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    }
    const cookie = await portal.server.sessionCookie('vera@demo.test');
    const r = await fetch(`${portal.server.url}/sims/tags`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: portal.server.url },
      body: new URLSearchParams({ intent: 'delete', tag: 'Synlig' }),
      redirect: 'manual',
    });
    expect(r.status).toBe(403);
    expect((await (await anna()).tags.list()).tags).toContain('Synlig');
  });

  it('says so when the company has no tags', async () => {
    const e = em();
    const other = e.create(Company, {
      name: 'Tomma AB',
      customerNumber: 'TOMMA-1',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    e.create(User, { name: 'Tom Tomsson', email: 'tom@tomma.se', company: other, role: 'owner' });
    await e.flush();
    const tom = await portal.loggedInPage('tom@tomma.se', { js: false });
    await tom.goto('/sims/tags');
    await tom.getByText('Inga taggar än.').waitFor();
    expect(await tom.locator('.tags-page-name').count()).toBe(0);
    await tom.context().close();
  });
});
