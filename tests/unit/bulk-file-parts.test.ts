// The XLSX parser reads only the parts its first worksheet needs (server/sims/xlsx-worker.ts, decision 015):
// a workbook with what Excel users put around a list (a hyperlink, a date, a note, an image, a table, a second
// sheet) must read exactly as exceljs reads the whole file, and "the first sheet" is the first in the
// workbook's order, not the first file in the zip.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parseBulkFile } from '#server/sims/bulk-file.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';

const iccid = (n: number) => withCheckDigit(`894601234567${String(n).padStart(7, '0')}`);
const [A, B, C] = [iccid(11), iccid(12), iccid(13)];
// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function dressedWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Lista');
  sheet.getColumn(1).numFmt = '@';
  sheet.addRow(['iccid', 'fakturamärkning', 'fakturakommentar']);
  sheet.addRow([A, { text: 'Länk', hyperlink: 'https://example.se/' }, new Date(Date.UTC(2026, 0, 31))]);
  sheet.addRow([B, 'Låda 2', null]);
  sheet.getCell('A2').note = 'Första kortet';
  sheet.addImage(wb.addImage({ buffer: new Uint8Array(PNG).buffer, extension: 'png' }), 'E1:F3');
  sheet.addTable({
    name: 'Extra',
    ref: 'H1',
    columns: [{ name: 'X' }],
    rows: [['y']],
  });
  wb.addWorksheet('Annat').addRow([C, 'fel blad']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('an XLSX with more than a list', () => {
  it('reads the first sheet with its hyperlink, date, note, image and table, as exceljs reads the whole file', async () => {
    expect(await parseBulkFile(await dressedWorkbook())).toEqual({
      ok: true,
      format: 'xlsx',
      header: true,
      rows: [
        { iccid: A, invoiceLineMark: 'Länk', invoiceLineNote: '2026-01-31' },
        { iccid: B, invoiceLineMark: 'Låda 2' },
      ],
    });
  });

  it('takes the first sheet of the workbook order, whichever file holds it', async () => {
    const zip = await JSZip.loadAsync(await dressedWorkbook());
    const workbook = await zip.file('xl/workbook.xml')!.async('string');
    const sheets = /<sheets>(<sheet [^>]*\/>)(<sheet [^>]*\/>)<\/sheets>/.exec(workbook)!;
    zip.file('xl/workbook.xml', workbook.replace(sheets[0], `<sheets>${sheets[2]}${sheets[1]}</sheets>`));
    const swapped = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    // What exceljs makes of the whole file: the second file's sheet comes first.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(swapped).buffer);
    expect(wb.worksheets[0]!.name).toBe('Annat');
    expect(await parseBulkFile(swapped)).toEqual({
      ok: true,
      format: 'xlsx',
      header: false,
      rows: [{ iccid: C, invoiceLineMark: 'fel blad' }],
    });
  });
});
