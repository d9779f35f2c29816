// Long: the file flows (CSV, XLSX, refusals, downloads) share the files made here and the page helpers.
// /add/bulk with a file, in a real Chromium with JS on and off (the main flow at 390 px): a Swedish Excel CSV
// (BOM, semicolons, Swedish header) and an XLSX with marks per row through preview, confirm and result; an
// XLSX whose ICCIDs Excel made numbers, a garbage file, 10,001 rows and a file beside a pasted list refused
// with the values kept; both templates and the result downloaded and read back.
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Download, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { parseBulkFile } from '#server/sims/bulk-file.ts';
import { TEMPLATE_EXAMPLE } from '#server/sims/bulk-downloads.ts';
import { MOBILE } from '#tests/helpers/browser.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946577');
const FILE_LABEL = 'Eller ladda upp en fil';

const sims = (iccids: string[]) =>
  portal.server.services.orm.em
    .fork()
    .find(Sim, { iccid: { $in: iccids }, status: 'active' }, { orderBy: { iccid: 'asc' } });
const count = (page: Page, outcome: string) => page.locator(`.bulk-counts [data-outcome=${outcome}] dd`).innerText();

async function open(js: boolean, width?: number): Promise<Page> {
  const page = await portal.loggedInPage('anna@demo.test', { js, width });
  await page.goto('/add/bulk');
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
  return page;
}

async function choosePlan(page: Page) {
  await page.getByLabel('Fakturamärkning').fill('Listans märkning');
  await page.getByLabel('Datamängd').selectOption({ label: '1 GB' });
}

async function upload(page: Page, name: string, buffer: Buffer, mimeType = 'text/csv') {
  await page.getByLabel(FILE_LABEL).setInputFiles({ name, mimeType, buffer });
}

async function xlsxOf(rows: ExcelJS.CellValue[][], iccidAsText = true): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Blad1');
  if (iccidAsText) sheet.getColumn(1).numFmt = '@';
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function download(page: Page, target: Locator): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent('download'), target.click()]);
  return file;
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);

for (const js of [true, false]) {
  describe(`/add/bulk with a file, JS ${js ? 'on' : 'off'}`, () => {
    it('a Swedish Excel CSV: preview with marks per row, activate, and the result downloaded as CSV and XLSX (390 px)', async () => {
      const page = await open(js, MOBILE.width);
      // The limits are said before anything is uploaded.
      expect(
        await page
          .getByText(/Högst 10\u00a0000 ICCID-nummer per fil och högst 4\u00a0096 kB; har du fler, dela upp filen/)
          .count(),
      ).toBe(1);
      // The columns' rules folded away under the templates (a <details>, also without JS).
      const columns = page.locator('details.bulkfile-columns');
      expect(await columns.locator('p').isVisible()).toBe(false);
      await columns.locator('summary').click();
      expect(await columns.locator('p').innerText()).toMatch(/^iccid, fakturamärkning, fakturakommentar, taggar\./);
      const [a, b] = [newIccid(), newIccid()];
      const csv = `\uFEFFICCID;Fakturamärkning;Fakturakommentar\r\n${a};"Låda; 1";=HYPERLINK("x")\r\n${b};;\r\n123;x;y\r\n`;
      await upload(page, 'lista.csv', Buffer.from(csv, 'utf8'));
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();

      await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
      expect(await count(page, 'ready')).toBe('2');
      expect(await count(page, 'invalid')).toBe('1');
      // The row with a problem first (row 3, with its own marks), then the good ones in list order.
      const rows = page.locator('.bulk-rows tbody tr');
      // (At 390 px the row's number stands under its ICCID.)
      expect(await rows.nth(0).innerText()).toMatch(/^123\s+Rad 3\s[\s\S]*Märkning: x/);
      expect(await rows.nth(1).innerText()).toContain('Märkning: Låda; 1');
      expect(await rows.nth(1).innerText()).toContain('Kommentar: =HYPERLINK("x")');
      expect(await page.getByTestId('bulkfile-carried').innerText()).toContain('lista.csv (3 rader)');
      await noSidewaysScroll(page);
      expect(await sims([a, b])).toHaveLength(0);

      await page.getByRole('button', { name: 'Aktivera 2 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      expect(await count(page, 'activated')).toBe('2');
      await noSidewaysScroll(page);
      const stored = await sims([a, b]);
      expect(stored.map((s) => [s.iccid, s.invoiceLineMark, s.invoiceLineNote])).toEqual(
        [
          [a, 'Låda; 1', '=HYPERLINK("x")'],
          [b, 'Listans märkning', ''],
        ].sort((x, y) => x[0]!.localeCompare(y[0]!)),
      );

      const csvFile = await download(
        page,
        page.getByRole('group', { name: 'Ladda ner resultat' }).getByRole('button', { name: 'CSV' }),
      );
      expect(csvFile.suggestedFilename()).toMatch(/^aktivera-flera-resultat_\d{4}-\d\d-\d\d\.csv$/);
      const text = await readFile(await csvFile.path(), 'utf8');
      expect(text.charCodeAt(0)).toBe(0xfeff);
      expect(text.slice(1).split('\r\n')).toEqual([
        'ICCID;Utfall;Meddelande',
        `"\t${a}";Aktiverat;`,
        `"\t${b}";Aktiverat;`,
        '"\t123";Ogiltigt ICCID;ICCID ska vara exakt 20 siffror.',
        '',
      ]);
      const xlsxFile = await download(
        page,
        page.getByRole('group', { name: 'Ladda ner resultat' }).getByRole('button', { name: 'Excel' }),
      );
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(await xlsxFile.path());
      const sheet = wb.worksheets[0]!;
      expect(sheet.getRow(1).values).toEqual([undefined, 'ICCID', 'Utfall', 'Meddelande']);
      expect([2, 3, 4].map((r) => [sheet.getCell(r, 1).value, sheet.getCell(r, 2).value])).toEqual([
        [a, 'Aktiverat'],
        [b, 'Aktiverat'],
        ['123', 'Ogiltigt ICCID'],
      ]);
      expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.String);
      // The downloads changed nothing and left the page as it was.
      expect(await page.getByRole('heading', { name: 'Resultat' }).count()).toBe(1);
      expect(await sims([a, b])).toHaveLength(2);
      await page.context().close();
    });

    it('an XLSX with marks per row: the same list again after the result activates nothing twice', async () => {
      const page = await open(js);
      const [a, b] = [newIccid(), newIccid()];
      const file = await xlsxOf([
        ['iccid', 'fakturamärkning', 'fakturakommentar'],
        [a, 'Bil 1', 'Förare Anna'],
        [b, 'Bil 2', null],
      ]);
      await upload(page, 'bilar.xlsx', file, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page.getByRole('button', { name: 'Aktivera 2 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      const stored = await sims([a, b]);
      expect(new Map(stored.map((s) => [s.iccid, [s.invoiceLineMark, s.invoiceLineNote]]))).toEqual(
        new Map([
          [a, ['Bil 1', 'Förare Anna']],
          [b, ['Bil 2', '']],
        ]),
      );
      await page.getByRole('button', { name: 'Förhandsgranska samma lista igen' }).click();
      await page.getByRole('heading', { name: 'Förhandsgranskning' }).waitFor();
      expect(await count(page, 'alreadyActive')).toBe('2');
      await page.context().close();
    });

    it('1,000 rows with long marks of their own ride through preview and confirm, and the result downloads', async () => {
      const page = await open(js);
      const list = Array.from({ length: 1000 }, () => newIccid());
      const mark = (i: number) => `Märkning ${i} ${'å'.repeat(180)}`;
      const file = await xlsxOf([
        ['iccid', 'fakturamärkning', 'fakturakommentar'],
        ...list.map((iccid, i) => [iccid, mark(i), 'ö'.repeat(200)]),
      ]);
      await upload(page, 'tusen.xlsx', file, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page.getByRole('button', { name: 'Aktivera 1\u00a0000 SIM-kort' }).click();
      await page.getByRole('heading', { name: 'Resultat' }).waitFor();
      expect(await count(page, 'activated')).toBe('1000');
      const stored = await sims(list);
      expect(stored).toHaveLength(1000);
      const byIccid = new Map(stored.map((s) => [s.iccid, s]));
      expect(list.every((iccid, i) => byIccid.get(iccid)!.invoiceLineMark === mark(i))).toBe(true);
      const csv = await download(
        page,
        page.getByRole('group', { name: 'Ladda ner resultat' }).getByRole('button', { name: 'CSV' }),
      );
      const lines = (await readFile(await csv.path(), 'utf8')).split('\r\n');
      expect(lines).toHaveLength(1002); // the header, 1,000 rows and the last line's end
      expect(lines.slice(1, -1).every((l) => l.endsWith(';Aktiverat;'))).toBe(true);
      await page.context().close();
    }, 120_000);

    it.each([
      [
        'an XLSX whose ICCIDs Excel made numbers',
        async () => ({
          name: 'tal.xlsx',
          buffer: await xlsxOf([['iccid'], [newIccid()], [8.9460123e19]], false),
        }),
        /ICCID-numret på rad 3 är ett tal i exponentform .*Excel har gjort om det till ett tal.*Formatera ICCID-kolumnen som text/,
      ],
      [
        'a garbage file',
        async () => ({ name: 'bild.csv', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) }),
        /Filen går inte att läsa/,
      ],
    ])('refuses %s next to the file field, keeping the other values', async (_, make, message) => {
      const page = await open(js);
      const { name, buffer } = await make();
      await upload(page, name, buffer);
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      // Under the file field, and in the summary at the top with a link to it.
      await page.locator('#bulkFile-error').getByText(message).waitFor();
      await page.locator('#error-summary a[href="#bulkFile"]').getByText(message).waitFor();
      expect(await page.getByLabel(FILE_LABEL).getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Listans märkning');
      expect(await page.getByLabel('Datamängd').inputValue()).toBe('1000');
      expect(await page.getByRole('heading', { name: 'Förhandsgranskning' }).count()).toBe(0);
      await page.context().close();
    });

    it('refuses a file of 10,001 rows, saying how many and what to do', async () => {
      const page = await open(js);
      const list = Array.from({ length: 10_001 }, (_, i) => `8946577${String(i).padStart(13, '0')}`);
      await upload(page, 'stor.csv', Buffer.from(['iccid', ...list].join('\n')));
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      if (js) {
        // Refused in the browser before the upload: the form was not sent.
        const input = page.getByLabel(FILE_LABEL);
        const message = /^Filen har 10\u00a0002 rader; högst 10\u00a0000 ICCID-nummer går på en gång. Dela upp filen/;
        await expect.poll(() => input.evaluate((el: HTMLInputElement) => el.validationMessage)).toMatch(message);
        // Said under the field, as the server's message would be (no browser bubble).
        await page.locator('#bulkFile-error').getByText(message).waitFor();
      } else {
        await page
          .locator('#bulkFile-error')
          .getByText(/^Filen har 10\u00a0001 rader med ICCID-nummer; högst 10\u00a0000 går på en gång. Dela upp filen/)
          .waitFor();
        expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Listans märkning');
      }
      expect(await page.getByRole('heading', { name: 'Förhandsgranskning' }).count()).toBe(0);
      await page.context().close();
    });

    it('refuses a file over 4 MB, in the browser with JS, on the server without', async () => {
      const page = await open(js);
      await upload(page, 'stor.csv', Buffer.alloc(4 * 1024 * 1024 + 1, '8'));
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      const message = /^Filen är för stor: högst 4\u00a0096 kB. Dela upp den i flera filer.$/;
      if (js) {
        const input = page.getByLabel(FILE_LABEL);
        await expect.poll(() => input.evaluate((el: HTMLInputElement) => el.validationMessage)).toMatch(message);
        await page.locator('#bulkFile-error').getByText(message).waitFor();
      } else {
        await page.locator('#bulkFile-error').getByText(message).waitFor();
        expect(await page.getByLabel('Fakturamärkning').inputValue()).toBe('Listans märkning');
      }
      expect(await page.getByRole('heading', { name: 'Förhandsgranskning' }).count()).toBe(0);
      await page.context().close();
    });

    it('refuses a file beside a pasted list, keeping the list', async () => {
      const page = await open(js);
      const iccid = newIccid();
      await page.getByLabel('ICCID-nummer').fill(iccid);
      await upload(page, 'lista.csv', Buffer.from(`${newIccid()}\n`));
      await choosePlan(page);
      await page.getByRole('button', { name: 'Förhandsgranska' }).click();
      await page
        .locator('#bulkFile-error')
        .getByText('Klistra in en lista eller ladda upp en fil, inte båda.')
        .waitFor();
      expect(await page.getByLabel('ICCID-nummer').inputValue()).toBe(iccid);
      await page.context().close();
    });

    it('downloads both templates, which read back as one example row with the ICCID column as text', async () => {
      const page = await open(js, MOBILE.width);
      const csv = await download(page, page.getByRole('link', { name: 'CSV-mall' }));
      expect(csv.suggestedFilename()).toBe('aktivera-flera-mall.csv');
      const csvBytes = await readFile(await csv.path());
      expect(csvBytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(csvBytes.toString('utf8').slice(1).split('\r\n')[0]).toBe('iccid;fakturamärkning;fakturakommentar;taggar');
      const example = {
        iccid: TEMPLATE_EXAMPLE[0],
        invoiceLineMark: TEMPLATE_EXAMPLE[1],
        invoiceLineNote: TEMPLATE_EXAMPLE[2],
        tags: TEMPLATE_EXAMPLE[3].split(', '),
      };
      expect(await parseBulkFile(csvBytes)).toEqual({ ok: true, format: 'csv', header: true, rows: [example] });

      const xlsx = await download(page, page.getByRole('link', { name: 'Excel-mall' }));
      expect(xlsx.suggestedFilename()).toBe('aktivera-flera-mall.xlsx');
      const xlsxBytes = await readFile(await xlsx.path());
      expect(await parseBulkFile(xlsxBytes)).toEqual({ ok: true, format: 'xlsx', header: true, rows: [example] });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(new Uint8Array(xlsxBytes).buffer);
      const sheet = wb.worksheets[0]!;
      expect(sheet.getRow(1).values).toEqual([undefined, 'iccid', 'fakturamärkning', 'fakturakommentar', 'taggar']);
      expect(sheet.getColumn(1).numFmt).toBe('@');
      expect(sheet.getCell('A2').numFmt).toBe('@');
      expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.String);
      expect(new URL(page.url()).pathname).toBe('/add/bulk');
      await page.context().close();
    });
  });
}

describe('the downloads are for logged-in users, and formatting a result changes nothing', () => {
  it('sends an anonymous caller to the login, refuses a GET of the result and a forged result', async () => {
    const anon = await fetch(`${portal.server.url}/add/bulk/template.csv`, { redirect: 'manual' });
    expect(anon.status).toBe(302);
    expect(anon.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const get = await fetch(`${portal.server.url}/add/bulk/result`, { headers: { cookie } });
    expect(get.status).toBe(405);
    const form = new FormData();
    form.set('format', 'csv');
    form.set(
      'results',
      JSON.stringify([
        ['=1+1', 'activated'],
        ['x', 'owned'],
      ]),
    );
    const forged = await fetch(`${portal.server.url}/add/bulk/result`, {
      method: 'POST',
      headers: { cookie, origin: portal.server.url, 'sec-fetch-site': 'same-origin' },
      body: form,
    });
    expect(forged.status).toBe(400);
    form.set('results', JSON.stringify([['=1+1', 'invalid']]));
    const safe = await fetch(`${portal.server.url}/add/bulk/result`, {
      method: 'POST',
      headers: { cookie, origin: portal.server.url, 'sec-fetch-site': 'same-origin' },
      body: form,
    });
    expect(safe.status).toBe(200);
    const text = await safe.text();
    // A text Excel would take for a formula is written behind an apostrophe.
    expect(text.split('\r\n')[1]).toMatch(/^'=1\+1;Ogiltigt ICCID;/);
  });
});
