// The export screen in a real Chromium: with JS the file downloads without leaving the page, without JS
// the plain GET form downloads it too, and a bad period comes back with the message and the values kept.
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { yearMonthInZone } from '#domain/export/periods.ts';
import { exportMessages } from '#domain/export/query.ts';
import { MOBILE } from '#tests/helpers/browser.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const Y = yearMonthInZone(new Date()).year - 1;

async function fill(page: Page, values: [string, string, string, string]) {
  const labels = ['Startår', 'Startmånad', 'Slutår', 'Slutmånad'];
  for (let i = 0; i < 4; i++) await page.getByLabel(labels[i]!, { exact: true }).fill(values[i]!);
}

async function openForm(js: boolean, viewport?: { width: number; height: number }) {
  const page = await portal.loggedInPage('anna@demo.test', { js, width: viewport?.width });
  const ctx = page.context();
  await page.goto('/export');
  // With JS, wait until React has taken over the form (else a quick click submits it natively).
  if (js) await page.locator('form[data-enhanced="true"]').waitFor();
  return { ctx, page };
}

describe('export screen', () => {
  for (const js of [true, false]) {
    it(`downloads Sim_export{period}.xlsx (JS ${js ? 'on' : 'off'})`, async () => {
      const { ctx, page } = await openForm(js);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Exportera fakturaspecifikation');
      const year = page.getByLabel('Startår', { exact: true });
      expect(await year.getAttribute('type')).toBe('number');
      expect(await year.getAttribute('inputmode')).toBe('numeric');
      expect(await year.getAttribute('min')).toBe('2000');
      expect(await year.getAttribute('max')).toBe('2100');
      expect(await year.getAttribute('required')).not.toBeNull();
      expect(await page.getByLabel('Slutmånad', { exact: true }).getAttribute('max')).toBe('12');
      // Demo AB invoices monthly: the form starts at last month.
      const last = yearMonthInZone(new Date());
      const prev = last.month === 1 ? { year: last.year - 1, month: 12 } : { year: last.year, month: last.month - 1 };
      expect(await page.getByLabel('Startmånad', { exact: true }).inputValue()).toBe(String(prev.month));
      expect(await page.getByLabel('Slutår', { exact: true }).inputValue()).toBe(String(prev.year));

      await fill(page, [String(Y), '1', String(Y), '3']);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Exportera' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`Sim_export${Y}1-${Y}3.xlsx`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(await download.path());
      expect(workbook.worksheets.map((w) => w.name)).toEqual(['Specifikation', 'Sammanställning', 'Förbrukning']);
      expect(workbook.getWorksheet('Specifikation')!.getCell('B1').value).toBe('Demo AB');
      // The page stayed where it was.
      expect(new URL(page.url()).pathname).toBe('/export');
      if (js) await page.getByRole('status').getByText(`Sim_export${Y}1-${Y}3.xlsx`).waitFor();
      await ctx.close();
    });
  }

  it('JS off: a bad period comes back to the form with the message and the values kept', async () => {
    const { ctx, page } = await openForm(false);
    await fill(page, [String(Y), '5', String(Y), '4']);
    await page.getByRole('button', { name: 'Exportera' }).click();
    await page.waitForURL((u) => u.pathname === '/export' && u.search.includes('start_month=5'));
    // The message under the field and, as a link to it, in the summary at the top.
    expect(await page.locator('#start_month-error').textContent()).toBe(exportMessages.order);
    expect(await page.getByRole('alert').getByRole('link').textContent()).toBe(exportMessages.order);
    expect(await page.getByLabel('Startår', { exact: true }).inputValue()).toBe(String(Y));
    expect(await page.getByLabel('Startmånad', { exact: true }).inputValue()).toBe('5');
    expect(await page.getByLabel('Slutmånad', { exact: true }).inputValue()).toBe('4');
    expect(await page.getByLabel('Startmånad', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    // Corrected, the same form downloads.
    await page.getByLabel('Slutmånad', { exact: true }).fill('6');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportera' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Sim_export${Y}5-${Y}6.xlsx`);
    await ctx.close();
  });

  it('JS on: a refused period shows the "Error" message with the server’s text, on the same page', async () => {
    const { ctx, page } = await openForm(true);
    await fill(page, [String(Y - 3), '1', String(Y), '1']);
    await page.getByRole('button', { name: 'Exportera' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.locator('strong').textContent()).toBe('Error');
    expect(await alert.textContent()).toContain(exportMessages.tooLong);
    expect(new URL(page.url()).pathname).toBe('/export');
    expect(await page.getByLabel('Startår', { exact: true }).inputValue()).toBe(String(Y - 3));
    await ctx.close();
  });

  for (const js of [true, false])
    it(`one click fills a common period: last quarter, this year (JS ${js ? 'on' : 'off'}, 390 px)`, async () => {
      const { ctx, page } = await openForm(js, MOBILE);
      const now = yearMonthInZone(new Date());
      const presets = page.getByRole('navigation', { name: 'Snabbval' });
      // Demo AB invoices monthly: the form starts at last month, and says so.
      expect(await presets.locator('[aria-current="true"]').innerText()).toBe('Förra månaden');
      await presets.getByRole('link', { name: 'Förra kvartalet' }).click();
      await page.waitForURL((u) => u.searchParams.has('start_month'));
      const quarter = Math.floor((now.month - 1) / 3);
      const start =
        quarter === 0 ? { year: now.year - 1, month: 10 } : { year: now.year, month: (quarter - 1) * 3 + 1 };
      const values = () =>
        Promise.all(
          ['Startår', 'Startmånad', 'Slutår', 'Slutmånad'].map((l) => page.getByLabel(l, { exact: true }).inputValue()),
        );
      await expect
        .poll(values)
        .toEqual([String(start.year), String(start.month), String(start.year), String(start.month + 2)]);
      expect(await presets.locator('[aria-current="true"]').innerText()).toBe('Förra kvartalet');
      // No message: a preset is always a period the export takes.
      expect(await page.locator('.error-summary').count()).toBe(0);
      await presets.getByRole('link', { name: 'I år' }).click();
      await expect.poll(values).toEqual([String(now.year), '1', String(now.year), String(now.month)]);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Exportera' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`Sim_export${now.year}1-${now.year}${now.month}.xlsx`);
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
      if (!js) await page.screenshot({ path: 'test-results/export-presets-390.png', fullPage: true });
      await ctx.close();
    });

  it('fits a 390 px wide phone', async () => {
    const { ctx, page } = await openForm(true, MOBILE);
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await page.screenshot({ path: 'test-results/export-390.png', fullPage: true });
    await ctx.close();
  });
});
