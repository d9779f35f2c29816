// The files of /add/bulk (server/sims/bulk-downloads.ts): the templates read back by the list's own parser,
// and a result file whose every row comes from [ICCID, outcome] alone, formula-safe.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseBulkFile } from '#server/sims/bulk-file.ts';
import { bulkResultFile, bulkTemplate, resultRowsOf, TEMPLATE_EXAMPLE } from '#server/sims/bulk-downloads.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';

const example = {
  iccid: TEMPLATE_EXAMPLE[0],
  invoiceLineMark: TEMPLATE_EXAMPLE[1],
  invoiceLineNote: TEMPLATE_EXAMPLE[2],
  tags: TEMPLATE_EXAMPLE[3].split(', '),
};

describe('templates', () => {
  it.each(['csv', 'xlsx'] as const)('the %s template parses back to its example row', async (format) => {
    const file = await bulkTemplate(format);
    expect(await parseBulkFile(file.body)).toEqual({ ok: true, format, header: true, rows: [example] });
  });

  it('the XLSX template has its ICCID column formatted as text', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array((await bulkTemplate('xlsx')).body).buffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getColumn(1).numFmt).toBe('@');
    expect(sheet.getCell('A2').value).toBe(example.iccid);
  });
});

describe('result', () => {
  const good = withCheckDigit('8946000000000000123');
  const posted = JSON.stringify([
    [good, 'activated'],
    ['=HYPERLINK("http://x")', 'invalid'],
    [good, 'duplicateInList'],
  ]);

  it('makes each message again from the outcome, and writes user text formula-safe in CSV and XLSX', async () => {
    const rows = resultRowsOf(posted)!;
    expect(rows.map((r) => r.message)).toEqual([
      undefined,
      'ICCID får bara innehålla siffror.',
      'ICCID-numret finns redan tidigare i listan.',
    ]);
    const csv = new TextDecoder().decode((await bulkResultFile('csv', rows)).body);
    expect(csv.split('\r\n').slice(1, 3)).toEqual([
      `"\t${good}";Aktiverat;`,
      `"'=HYPERLINK(""http://x"")";Ogiltigt ICCID;ICCID får bara innehålla siffror.`,
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array((await bulkResultFile('xlsx', rows)).body).buffer);
    const cell = wb.worksheets[0]!.getCell('A3');
    expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
    expect(cell.text).toBe('=HYPERLINK("http://x")');
  });

  it.each([
    ['not JSON', '[['],
    ['an unknown outcome', JSON.stringify([[good, 'stolen']])],
    ['a message sent along', JSON.stringify([[good, 'activated', 'hej']])],
    ['an empty list', '[]'],
    ['10,001 rows', JSON.stringify(Array.from({ length: 10_001 }, () => [good, 'activated']))],
    ['too long an ICCID', JSON.stringify([['1'.repeat(101), 'invalid']])],
  ])('refuses %s', (_, text) => {
    expect(resultRowsOf(text)).toBeNull();
  });
});
