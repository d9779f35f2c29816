// A 10,000-row CSV and XLSX through /add/bulk's real door, as the page's own form posts them without JS:
// the file to "Förhandsgranska", then the preview's hidden list to "Aktivera N SIM-kort". Every row is activated
// with its own mark, and the pages stay small: counts and problems first, not 10,000 table rows.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { decodeHtml, hiddenValue } from '#tests/helpers/html.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946579');

/** The counts a page shows (BulkCounts: a tile with data-outcome, its icon and word, then the number). */
const counts = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/data-outcome="(\w+)"><dt>(?:(?!<\/dt>)[\s\S])*<\/dt><dd>(\d+)<\/dd><\/div>/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]),
  );

async function post(form: FormData, cookie: string) {
  const res = await fetch(`${portal.server.url}/add/bulk`, { method: 'POST', headers: { cookie }, body: form });
  const html = await res.text();
  expect(html).not.toMatch(/\n\s+at |Error:|ERR_/);
  return { status: res.status, html };
}

const fields = (form: FormData) => {
  form.set('dataLimit', '1000');
  form.set('invoiceLineMark', 'Fältets märkning');
  form.set('invoiceLineNote', '');
  return form;
};

/** Posts the file for a preview, then the preview's list to activate, as the page's forms do; both answers. */
async function previewAndActivate(file: Blob, name: string) {
  const cookie = await portal.server.sessionCookie('anna@demo.test');
  const first = fields(new FormData());
  first.set('iccids', '');
  first.set('file', file, name);
  first.set('intent', 'preview');
  const started = performance.now();
  const preview = await post(first, cookie);
  const previewMs = performance.now() - started;
  expect(preview.status).toBe(200);
  const rows = hiddenValue(preview.html, 'rows');
  expect(rows).not.toBeNull();

  const second = fields(new FormData());
  second.set('iccids', '');
  second.set('rows', rows!);
  second.set('fileName', hiddenValue(preview.html, 'fileName') ?? '');
  second.set('intent', 'activate');
  const t = performance.now();
  const result = await post(second, cookie);
  const resultMs = performance.now() - t;
  expect(result.status).toBe(200);
  return { preview, result, previewMs, resultMs };
}

async function expectActivated(iccids: string[], mark: (i: number) => string) {
  const sims = await portal.server.services.orm.em
    .fork()
    .find(Sim, { iccid: { $in: iccids }, status: 'active' }, { fields: ['iccid', 'invoiceLineMark'] });
  expect(sims).toHaveLength(iccids.length);
  const marks = new Map(sims.map((s) => [s.iccid, s.invoiceLineMark]));
  iccids.forEach((iccid, i) => expect(marks.get(iccid)).toBe(mark(i)));
}

describe('a 10,000-row file through /add/bulk without JS', () => {
  it('CSV: previewed, activated, each row with its own mark; the pages list the problems, not every row', async () => {
    const iccids = Array.from({ length: 10_000 }, () => newIccid());
    const mark = (i: number) => (i % 2 ? `Mätare ${i}` : 'Fältets märkning');
    // Swedish Excel's CSV: semicolons, CRLF, a header with Swedish names; every other row leaves its mark empty.
    const bad = ['8946', iccids[3]!];
    const csv =
      'iccid;fakturamärkning;fakturakommentar\r\n' +
      [
        ...iccids.map((iccid, i) => `${iccid};${i % 2 ? `Mätare ${i}` : ''};Låda ${i}`),
        ...bad.map((b) => `${b};;`),
      ].join('\r\n');
    expect(csv.length).toBeGreaterThan(300_000);
    // 10,002 rows: two over the bound, so first the page says so next to the file field.
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const tooMany = fields(new FormData());
    tooMany.set('iccids', '');
    tooMany.set('file', new Blob([csv], { type: 'text/csv' }), 'lista.csv');
    const refused = await post(tooMany, cookie);
    expect(decodeHtml(refused.html)).toMatch(/Filen har 10\u00a0002 rader med ICCID-nummer; högst 10\u00a0000 går/);

    const rows = csv.split('\r\n');
    const ok = [rows[0], ...rows.slice(1, 9_999), ...rows.slice(-2)].join('\r\n'); // 9,998 good rows and the 2 bad
    const { preview, result, previewMs, resultMs } = await previewAndActivate(
      new Blob([ok], { type: 'text/csv' }),
      'lista.csv',
    );
    expect(counts(preview.html)).toEqual({ ready: 9_998, invalid: 1, duplicateInList: 1 });
    expect(decodeHtml(preview.html)).toContain('Aktivera 9\u00a0998 SIM-kort');
    expect(counts(result.html)).toEqual({ activated: 9_998, invalid: 1, duplicateInList: 1 });
    // Only the two problem rows are listed, with their row numbers in the list; the rest are counted.
    const listed = [...result.html.matchAll(/<tr data-outcome="(\w+)"[^>]*><td class="bulk-n">(\d+)<\/td>/g)].map(
      (m) => [m[2], m[1]],
    );
    expect(listed).toEqual([
      ['9999', 'invalid'],
      ['10000', 'duplicateInList'],
    ]);
    expect(decodeHtml(result.html)).toContain('9\u00a0998 rader utan anmärkning listas inte');
    // The download carries every row, and /add/bulk/result's door takes all of them.
    const pairs = hiddenValue(result.html, 'results')!;
    expect(JSON.parse(pairs)).toHaveLength(10_000);
    const download = new FormData();
    download.set('results', pairs);
    download.set('format', 'csv');
    const file = await fetch(`${portal.server.url}/add/bulk/result`, {
      method: 'POST',
      headers: { cookie: await portal.server.sessionCookie('anna@demo.test') },
      body: download,
    });
    expect(file.status).toBe(200);
    const lines = (await file.text()).split('\r\n');
    expect(lines).toHaveLength(10_002); // the header, 10,000 rows and the last line's end
    expect(lines.filter((l) => l.includes(';Aktiverat;'))).toHaveLength(9_998);
    console.log(`result page ${result.html.length} bytes, preview ${preview.html.length}`);
    expect(result.html.length).toBeLessThan(3 * 1024 * 1024);
    await expectActivated(iccids.slice(0, 9_998), mark);
    console.log(`CSV of 10,000 rows: preview ${Math.round(previewMs)} ms, activation ${Math.round(resultMs)} ms`);
  }, 120_000);

  it('XLSX: a workbook of 10,000 rows is read and activated the same way', async () => {
    const iccids = Array.from({ length: 10_000 }, () => newIccid());
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('SIM-kort');
    sheet.addRow(['ICCID', 'Fakturamärkning', 'Fakturakommentar']);
    iccids.forEach((iccid, i) => sheet.addRow([iccid, `Larm ${i}`, `Skåp ${i % 50}`]));
    const file = new Uint8Array(await wb.xlsx.writeBuffer());
    const { preview, result, previewMs, resultMs } = await previewAndActivate(new Blob([file]), 'lista.xlsx');
    expect(counts(preview.html)).toEqual({ ready: 10_000 });
    expect(counts(result.html)).toEqual({ activated: 10_000 });
    expect(decodeHtml(result.html)).toContain('ingen rad har någon anmärkning');
    console.log(`result page ${result.html.length} bytes, preview ${preview.html.length}`);
    expect(result.html.length).toBeLessThan(3 * 1024 * 1024);
    await expectActivated(iccids, (i) => `Larm ${i}`);
    console.log(
      `XLSX of 10,000 rows (${Math.round(file.length / 1024)} kB): preview ${Math.round(previewMs)} ms, activation ${Math.round(resultMs)} ms`,
    );
  }, 120_000);
});
