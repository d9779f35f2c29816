// Tags at activation (issue 40) in a real Chromium at 390 px: /add's "Taggar" field (comma-separated) with JS on and
// off, a refused tag next to the field with what was typed kept; /add/bulk's field for the whole list and a file's
// Taggar column per row, through preview, confirm and result; axe finds nothing on the pages with JS.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946566');

/** The tags of the active SIM with this ICCID, in text order. */
async function tagsOf(iccid: string): Promise<string[]> {
  const rows = await portal.server.services.orm.em
    .fork()
    .execute<Array<{ tag: string }>>(
      `select t.tag from sim_tag t join sim s on s.id = t.sim_id where s.iccid = ? and s.status = 'active' order by t.tag collate "C"`,
      [iccid],
    );
  return rows.map((r) => r.tag);
}

async function open(path: string, js: boolean): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js, width: MOBILE.width });
  await page.goto(path);
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
  return page;
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);

for (const js of [true, false]) {
  describe(`tags at activation, JS ${js ? 'on' : 'off'}`, () => {
    it('/add: a refused tag is shown next to the field with the text kept; fixed, the SIM gets every tag', async () => {
      const page = await open('/add', js);
      const iccid = newIccid();
      await page.getByLabel('ICCID').fill(iccid);
      await page.getByLabel('Datamängd', { exact: true }).selectOption({ label: '1 GB' });
      const field = page.getByLabel('Taggar', { exact: true });
      const typed = `Göteborg, ${'x'.repeat(41)}`;
      await field.fill(typed);
      await page.getByRole('button', { name: 'Aktivera', exact: true }).click();
      await page.locator('#tags-error').waitFor();
      expect(await page.locator('#tags-error').innerText()).toBe('En tagg får vara högst 40 tecken.');
      expect(await page.getByLabel('Taggar', { exact: true }).inputValue()).toBe(typed);
      expect(await page.getByLabel('Taggar', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await tagsOf(iccid)).toEqual([]);
      await noSidewaysScroll(page);
      if (js) expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel('Taggar', { exact: true }).fill(' Kylbilar ,Göteborg,, Kylbilar');
      await page.getByRole('button', { name: 'Aktivera', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/sims');
      expect(await tagsOf(iccid)).toEqual(['Göteborg', 'Kylbilar']);
    });

    it('/add/bulk: the list’s tags on every SIM, a file’s Taggar column per row', async () => {
      const page = await open('/add/bulk', js);
      const [a, b] = [newIccid(), newIccid()];
      const csv = `iccid;taggar\r\n${a};"Rad A, Kylbilar"\r\n${b};\r\n`;
      await page
        .getByLabel('Eller ladda upp en fil')
        .setInputFiles({ name: 'taggar.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
      await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
      await page.getByLabel('Taggar', { exact: true }).fill('Leverans 9');
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
      await noSidewaysScroll(page);
      if (js) expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Aktivera 2 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      expect(await tagsOf(a)).toEqual(['Kylbilar', 'Leverans 9', 'Rad A']);
      expect(await tagsOf(b)).toEqual(['Leverans 9']);
      expect(await page.getByLabel('Taggar', { exact: true }).inputValue()).toBe('Leverans 9');
      if (js) expect(await axeViolations(page)).toEqual([]);
    });

    it('/add/bulk: a pasted list’s tags on every SIM it activates', async () => {
      const page = await open('/add/bulk', js);
      const [a, b] = [newIccid(), newIccid()];
      await page.getByLabel('ICCID-nummer').fill(`${a}\n${b}`);
      await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
      await page.getByLabel('Taggar', { exact: true }).fill('Norr, Kylbilar');
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page.getByRole('button', { name: 'Aktivera 2 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      await expect.poll(() => tagsOf(b)).toEqual(['Kylbilar', 'Norr']);
      expect(await tagsOf(a)).toEqual(['Kylbilar', 'Norr']);
    });

    it('/add/bulk: a pasted list with a refused tag keeps the list and the text, the message at the field', async () => {
      const page = await open('/add/bulk', js);
      const iccid = newIccid();
      await page.getByLabel('ICCID-nummer', { exact: false }).first().fill(iccid);
      await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
      const typed = `Syd, ${'y'.repeat(41)}`;
      await page.getByLabel('Taggar', { exact: true }).fill(typed);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page.locator('#tags-error').waitFor();
      expect(await page.locator('#tags-error').innerText()).toBe('En tagg får vara högst 40 tecken.');
      expect(await page.getByLabel('Taggar', { exact: true }).inputValue()).toBe(typed);
      await noSidewaysScroll(page);
      if (js) expect(await axeViolations(page)).toEqual([]);
    });
  });
}
