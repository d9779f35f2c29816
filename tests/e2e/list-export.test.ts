// "Exportera listan" on /sims in a real Chromium at 390 px, JS on and off: the links download the SIMs of the
// search on screen (with JS, the live search too) as CSV and XLSX.
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOBILE } from '#tests/helpers/browser.ts';
import { callerFor } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946515');

async function activate(mark: string): Promise<string> {
  const anna = await callerFor(portal.server.services, 'anna@demo.test');
  const iccid = newIccid();
  await anna.sim.activate({
    iccid,
    dataLimit: 1000,
    callAndSms: false,
    roaming: false,
    invoiceLineMark: mark,
    invoiceLineNote: '',
  });
  return iccid;
}

async function download(page: Page, name: string): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return file;
}

const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());

describe('Exportera listan on /sims', () => {
  for (const js of [true, false]) {
    it(`downloads the searched list as CSV and XLSX at 390 px (JS ${js ? 'on' : 'off'})`, async () => {
      const tag = `Exportlåda ${js ? 'med' : 'utan'}`;
      const wanted = [await activate(`${tag} 1`), await activate(`${tag} 2`)];
      const elsewhere = await activate(`Annan låda ${js}`);
      const page = await portal.loggedInPage('anna@demo.test', { js, width: MOBILE.width });
      await page.goto('/sims');
      if (js) await page.waitForFunction(() => '__remixRouter' in window);
      await page.getByLabel('Sök bland SIM-kort').fill(tag.toLowerCase());
      // Without JS the search form is sent; with JS the live search alone changes the links.
      if (!js) await page.getByRole('button', { name: 'Sök' }).click();
      await page.waitForURL((u) => u.searchParams.get('q') === tag.toLowerCase());
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);

      const csvName = `Exportera SIM-kort som matchar ”${tag.toLowerCase()}” som CSV`;
      const link = page.getByRole('link', { name: csvName });
      expect(await link.isVisible()).toBe(true);
      expect(await link.textContent()).toBe('CSV');
      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);

      const csv = await download(page, csvName);
      expect(csv.suggestedFilename()).toBe(`SIM-kort_${today}.csv`);
      const text = await readFile(await csv.path(), 'utf8');
      expect(text.charCodeAt(0)).toBe(0xfeff);
      const lines = text.slice(1).split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]!.split(';')[0]).toBe('ICCID');
      expect(lines.slice(1, -1).map((l) => l.split(';')[0])).toEqual([...wanted].reverse().map((i) => `"\t${i}"`));
      expect(text).not.toContain(elsewhere);
      // The page stayed where it was.
      expect(new URL(page.url()).pathname).toBe('/sims');

      const xlsx = await download(page, `Exportera SIM-kort som matchar ”${tag.toLowerCase()}” som Excel (XLSX)`);
      expect(xlsx.suggestedFilename()).toBe(`SIM-kort_${today}.xlsx`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(await xlsx.path());
      const sheet = workbook.getWorksheet('SIM-kort')!;
      expect([2, 3].map((r) => sheet.getCell(r, 1).value)).toEqual([...wanted].reverse());
      expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.String);
      expect(sheet.rowCount).toBe(3);
      await page.context().close();
    });
  }
});
