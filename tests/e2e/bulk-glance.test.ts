// /add/bulk read at a glance, in a real Chromium with JS on and off: a list with a good ICCID, a wrong check digit,
// a repeat and one already active. The counts come first with the problems first; each row's outcome is a badge
// with a visible icon and its word, a problem in another colour than a good row; the rows with a problem come
// first with their numbers in the list; "Visa bara problem" hides the good rows (CSS, so also without JS) without
// moving itself; the result's download sits by the counts; on a phone the preview is right under the list; axe
// finds nothing in the preview or the result at 1280 and 390 px, dark and light.
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946444');

/** The list: rows 1 and 5 good, 2 a wrong check digit, 3 a repeat of row 1, 4 already active in the company. */
async function mixedList(): Promise<string[]> {
  const [good, other, active, last] = [newIccid(), newIccid(), newIccid(), newIccid()];
  const wrongCheck = other.slice(0, 19) + String((Number(other[19]) + 1) % 10);
  const res = await fetch(`${portal.server.url}/api/sim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: await portal.server.sessionCookie('anna@demo.test') },
    body: JSON.stringify({ iccid: active, dataLimit: 1000, callAndSms: true, roaming: false }),
  });
  expect(res.status).toBe(200);
  return [good, wrongCheck, good, active, last];
}

async function open(js: boolean, width?: number, theme?: 'light'): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js, width });
  if (theme) await page.context().addCookies([{ name: 'theme', value: theme, url: portal.server.url }]);
  await page.goto('/add/bulk');
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
  return page;
}

/** The list and a plan; without JS "Förhandsgranska" (with JS the live preview comes by itself). */
async function preview(page: Page, js: boolean, list: string[]) {
  await page.getByLabel('ICCID-nummer').fill(list.join('\n'));
  await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
  if (!js) await page.getByRole('button', { name: 'Förhandsgranska' }).click();
  await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
  await page.getByRole('button', { name: 'Aktivera 2 SIM-kort' }).waitFor();
}

async function activate(page: Page) {
  await page.getByRole('button', { name: 'Aktivera 2 SIM-kort' }).click();
  await page.getByRole('heading', { name: 'Resultat' }).waitFor();
  await page.locator('.bulk-rows tbody tr[data-outcome=activated]').first().waitFor();
}

const attribute = (items: Locator, name: string) =>
  items.evaluateAll((els, n) => els.map((e) => e.getAttribute(n)), name);

/** A visible drawing, hidden from assistive technology, beside a visible word. */
async function expectIconAndWord(item: Locator, word: string) {
  const icon = item.locator('svg');
  const box = await icon.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(10);
  expect(box?.height).toBeGreaterThanOrEqual(10);
  expect(await icon.getAttribute('aria-hidden')).toBe('true');
  expect(await icon.locator('path').getAttribute('d')).toMatch(/\d/);
  expect((await item.innerText()).trim()).toContain(word);
}

const colours = (badge: Locator) =>
  badge.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, text: style.color, icon: el.querySelector('path')?.getAttribute('d') };
  });

/** Everything the preview ('ready') or the result ('activated') must show at a glance. */
async function expectAtAGlance(page: Page, good: 'ready' | 'activated') {
  const words = {
    invalid: 'Ogiltigt ICCID',
    duplicateInList: 'Dubblett i listan',
    alreadyActive: 'Redan aktivt i ert företag',
    ready: 'Klart att aktivera',
    activated: 'Aktiverat',
  };
  // The counts first, the problems before the good ones, each with the badge's icon and word.
  const tiles = page.locator('.bulk-counts > div');
  expect(await attribute(tiles, 'data-outcome')).toEqual(['invalid', 'duplicateInList', 'alreadyActive', good]);
  expect(await page.locator(`.bulk-counts [data-outcome=${good}] dd`).innerText()).toBe('2');
  for (const [i, outcome] of (['invalid', 'duplicateInList', 'alreadyActive', good] as const).entries())
    await expectIconAndWord(tiles.nth(i), words[outcome]);
  const countsBox = (await page.locator('.bulk-counts').boundingBox())!;
  const headingBox = (await page.locator('.bulk-outcome h2').boundingBox())!;
  expect(countsBox.y - (headingBox.y + headingBox.height)).toBeLessThan(40);

  // The rows with a problem first, each with its number in the list; each outcome a badge with its message.
  const rows = page.locator('.bulk-rows tbody tr');
  expect(await attribute(rows, 'data-outcome')).toEqual(['invalid', 'duplicateInList', 'alreadyActive', good, good]);
  expect(await rows.locator('td.bulk-n').allTextContents()).toEqual(['2', '3', '4', '1', '5']);
  for (const [i, outcome] of (['invalid', 'duplicateInList', 'alreadyActive', good, good] as const).entries())
    await expectIconAndWord(rows.nth(i).locator('.badge'), words[outcome]);
  expect(await rows.nth(0).innerText()).toContain('kontrollsiffra');
  // Not by colour alone, but by colour too: a problem's badge differs from a good one's in colour and icon.
  const problem = await colours(rows.nth(0).locator('.badge'));
  const fine = await colours(rows.nth(3).locator('.badge'));
  expect(problem.background).not.toBe(fine.background);
  expect(problem.text).not.toBe(fine.text);
  expect(problem.icon).not.toBe(fine.icon);

  // "Visa bara problem": the good rows go, the problems stay, the checkbox stays where it was; and back.
  const only = page.getByLabel('Visa bara problem');
  const before = await only.boundingBox();
  await only.check();
  await expect.poll(() => rows.nth(3).isHidden()).toBe(true);
  expect(await rows.nth(4).isHidden()).toBe(true);
  for (const i of [0, 1, 2]) expect(await rows.nth(i).isVisible()).toBe(true);
  expect(await only.boundingBox()).toEqual(before);
  expect(await only.isChecked()).toBe(true);
  await only.uncheck();
  await expect.poll(() => rows.nth(3).isVisible()).toBe(true);
  expect(await rows.nth(4).isVisible()).toBe(true);
}

for (const js of [true, false]) {
  describe(`/add/bulk at a glance, JS ${js ? 'on' : 'off'}`, () => {
    it('counts first and problems first, a badge with icon and word per row, only problems, the download by the counts', async () => {
      const page = await open(js);
      const list = await mixedList();
      await preview(page, js, list);
      await expectAtAGlance(page, 'ready');
      await activate(page);
      await expectAtAGlance(page, 'activated');
      // The download right under the counts, and it holds every row with its outcome.
      const counts = (await page.locator('.bulk-counts').boundingBox())!;
      const download = page.locator('.bulk-outcome .bulkfile-download');
      const box = (await download.boundingBox())!;
      expect(box.y - (counts.y + counts.height)).toBeLessThan(60);
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        download.getByRole('button', { name: 'CSV' }).click(),
      ]);
      const csv = await readFile(await file.path(), 'utf8');
      expect(csv).toContain(list[1]);
      expect(csv).toContain('Ogiltigt ICCID');
      expect(csv.split('\r\n').filter((l) => l.includes('Aktiverat'))).toHaveLength(2);
      await page.context().close();
    });

    it('a list without a plan: the server says so under the plan and in the summary, no browser bubble', async () => {
      const page = await open(js);
      const [good] = await mixedList();
      await page.getByLabel('ICCID-nummer').fill(good!);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      const message = (await page.locator('#plan-dataLimit-error').innerText()).trim();
      expect(message.length).toBeGreaterThan(5);
      expect(await page.locator('#error-summary a[href="#plan-dataLimit"]').innerText()).toContain(message);
      expect(await page.getByLabel('ICCID-nummer').inputValue()).toBe(good);
      expect(await page.getByRole('heading', { name: 'Förhandsgranskning' }).count()).toBe(0);
      await page.context().close();
    });

    it('on a phone the preview and the result sit right under the list', async () => {
      const page = await open(js, MOBILE.width);
      // The scan button's place (kept unseen while JS loads) takes no room where scripting is off.
      if (!js) expect(await page.locator('.bulklive-pending').boundingBox()).toBeNull();
      await preview(page, js, await mixedList());
      const gap = () =>
        page.evaluate(() => {
          const list = document.querySelector('textarea[name=iccids]')!.getBoundingClientRect();
          const shown = document.querySelector('.bulk-outcome')!.getBoundingClientRect();
          return shown.top - list.bottom;
        });
      expect(await gap()).toBeGreaterThan(0);
      expect(await gap()).toBeLessThan(900);
      await activate(page);
      expect(await gap()).toBeGreaterThan(0);
      expect(await gap()).toBeLessThan(900);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      await page.context().close();
    });
  });
}

// axe needs scripts: it runs with JS on; without JS the preview and result are the same server-rendered markup.
for (const width of [1280, MOBILE.width]) {
  it(`axe finds nothing in the preview and the result at ${width} px, dark and light`, async () => {
    for (const theme of [undefined, 'light'] as const) {
      const page = await open(true, width, theme);
      expect(await page.locator('html').getAttribute('data-theme')).toBe(theme ?? 'dark');
      await preview(page, true, await mixedList());
      await page.getByLabel('Visa bara problem').check();
      expect(await axeViolations(page)).toEqual([]);
      await activate(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
}
