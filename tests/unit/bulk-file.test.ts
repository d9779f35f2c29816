// The bulk list's file parser (server/sims/bulk-file.ts): CSV in its spellings, XLSX through exceljs,
// numbers Excel made of ICCIDs refused by row, and every kind of garbage refused in Swedish.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { BULK_FILE_MAX_BYTES, parseBulkFile } from '#server/sims/bulk-file.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';

const iccid = (n: number) => withCheckDigit(`894601234567${String(n).padStart(7, '0')}`);
const [A, B, C] = [iccid(1), iccid(2), iccid(3)];
const utf8 = (text: string) => new TextEncoder().encode(text);

async function xlsx(rows: ExcelJS.CellValue[][], textColumn = true): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Blad1');
  if (textColumn) sheet.getColumn(1).numFmt = '@';
  for (const r of rows) sheet.addRow(r);
  wb.addWorksheet('Blad2').addRow(['ignoreras']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('CSV', () => {
  it('reads a Swedish Excel file: BOM, semicolons, a header with Swedish names, quoted fields, CRLF', async () => {
    const file = `\uFEFFICCID;Fakturamärkning;Fakturakommentar\r\n${A};"Låda; 7";"Sa ""hej"""\r\n\r\n\t${B};;\r\n${C};Bil 2;"två\r\nrader"\r\n`;
    expect(await parseBulkFile(utf8(file))).toEqual({
      ok: true,
      format: 'csv',
      header: true,
      rows: [
        { iccid: A, invoiceLineMark: 'Låda; 7', invoiceLineNote: 'Sa "hej"' },
        { iccid: B },
        { iccid: C, invoiceLineMark: 'Bil 2', invoiceLineNote: 'två\r\nrader' },
      ],
    });
  });

  it('reads commas without a header: ICCID, mark, comment in that order', async () => {
    const r = await parseBulkFile(utf8(`${A},Låda 1,Anteckning\n${B}\n${C},,Bara kommentar`));
    expect(r).toMatchObject({ ok: true, header: false });
    expect(r.ok && r.rows).toEqual([
      { iccid: A, invoiceLineMark: 'Låda 1', invoiceLineNote: 'Anteckning' },
      { iccid: B },
      { iccid: C, invoiceLineNote: 'Bara kommentar' },
    ]);
  });

  it('takes the header columns by name, in any order and case, English or Swedish, other columns ignored', async () => {
    const r = await parseBulkFile(utf8(`Rad,invoice_line_note,Iccid,INVOICELINEMARK\n1,k,${A},m\n`));
    expect(r.ok && r.rows).toEqual([{ iccid: A, invoiceLineMark: 'm', invoiceLineNote: 'k' }]);
  });

  it('reads a Windows-1252 file (Swedish Excel\'s "CSV") and a single column of ICCIDs', async () => {
    const latin1 = [...`iccid;fakturam\xe4rkning\r\n${A};L\xe5da\r\n`].map((c) => c.charCodeAt(0));
    const r = await parseBulkFile(Uint8Array.from(latin1));
    expect(r.ok && r.rows).toEqual([{ iccid: A, invoiceLineMark: 'Låda' }]);
    const single = await parseBulkFile(utf8(`${A}\n${B}\n`));
    expect(single.ok && single.rows).toEqual([{ iccid: A }, { iccid: B }]);
  });

  it('keeps an ICCID that is wrong as it is: the preview says what is wrong with it', async () => {
    const r = await parseBulkFile(utf8(`iccid\n123\n${A.slice(0, 19)}\n`));
    expect(r.ok && r.rows).toEqual([{ iccid: '123' }, { iccid: A.slice(0, 19) }]);
  });

  it('refuses ICCIDs Excel wrote in scientific notation, naming the rows', async () => {
    const r = await parseBulkFile(utf8(`iccid;fakturamärkning\n${A};a\n8,9460123E+19;b\n8.94601E+19;c\n`));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]).toMatch(/^ICCID-numret på rad 3 och 4 är ett tal i exponentform/);
    expect(!r.ok && r.errors[0]).toMatch(/Formatera ICCID-kolumnen som text/);
  });

  it('refuses a mark longer than the field allows, naming the row of the file', async () => {
    const r = await parseBulkFile(utf8(`iccid;fakturakommentar\n${A};ok\n${B};${'x'.repeat(201)}\n`));
    expect(r).toEqual({ ok: false, errors: ['Rad 3: fakturakommentaren får ha högst 200 tecken.'] });
  });

  it('refuses a header without an iccid column', async () => {
    const r = await parseBulkFile(utf8(`fakturamärkning;fakturakommentar\na;b\n`));
    expect(r).toEqual({ ok: false, errors: [expect.stringMatching(/saknar kolumnen iccid/)] });
  });

  it('takes 10,000 rows, and refuses 10,001 saying how many and the maximum', async () => {
    const rows = (n: number) => 'iccid\n' + Array.from({ length: n }, (_, i) => iccid(i)).join('\n');
    const ok = await parseBulkFile(utf8(rows(10_000)));
    expect(ok.ok && ok.rows.length).toBe(10_000);
    const r = await parseBulkFile(utf8(rows(10_001)));
    expect(r).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^Filen har 10\u00a0001 rader .* högst 10\u00a0000 .*Dela upp filen/)],
    });
    const many = await parseBulkFile(utf8(rows(50_000)));
    expect(!many.ok && many.errors[0]).toMatch(/^Filen har 50\u00a0000 rader/);
  });
});

describe('XLSX', () => {
  it('reads the first sheet: text ICCIDs, per-row marks, rich text and formula results', async () => {
    const file = await xlsx([
      ['ICCID', 'Fakturamärkning', 'Fakturakommentar'],
      [A, 'Låda 1', { richText: [{ text: 'Rik ' }, { text: 'text' }] }],
      [B, null, null],
      [C, { formula: '"Bil"&"2"', result: 'Bil2' }, 42],
    ]);
    expect(await parseBulkFile(file)).toEqual({
      ok: true,
      format: 'xlsx',
      header: true,
      rows: [
        { iccid: A, invoiceLineMark: 'Låda 1', invoiceLineNote: 'Rik text' },
        { iccid: B },
        { iccid: C, invoiceLineMark: 'Bil2', invoiceLineNote: '42' },
      ],
    });
  });

  it('refuses ICCIDs stored as numbers, naming their rows, never rounding them', async () => {
    const file = await xlsx([['iccid'], [A], [Number(B)], [8.9460123e19]], false);
    const r = await parseBulkFile(file);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]).toMatch(
      /^ICCID-numret på rad 3 och 4 är ett tal i exponentform.*Excel har gjort om det/,
    );
  });

  it('takes 10,000 rows in a workbook, and refuses 10,001', async () => {
    const ok = await parseBulkFile(await xlsx([['iccid'], ...Array.from({ length: 10_000 }, (_, i) => [iccid(i)])]));
    expect(ok.ok && ok.rows.length).toBe(10_000);
    const file = await xlsx([['iccid'], ...Array.from({ length: 10_001 }, (_, i) => [iccid(i)])]);
    expect(await parseBulkFile(file)).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^Filen har 10\u00a0001 rader/)],
    });
  });
});

describe('garbage', () => {
  it.each([
    ['an empty file', new Uint8Array(), /^Filen är tom/],
    ['a binary file', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0xff]), /går inte att läsa/],
    ['control characters', utf8('abc\x01def\n'), /går inte att läsa/],
    ['a zip that is no workbook', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]), /går inte att läsa/],
    ['a file of blank lines', utf8('\n\n ; \n'), /inga rader/],
    ['only a header', utf8('iccid;fakturamärkning\n'), /inga rader/],
    [
      'a file over the size limit',
      utf8(`${A}\n`.repeat(BULK_FILE_MAX_BYTES / 21 + 10)),
      /för stor: högst 4\u00a0096 kB/,
    ],
  ])('refuses %s in Swedish', async (_, bytes, message) => {
    const r = await parseBulkFile(bytes);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]).toMatch(message);
  });

  it('refuses a workbook that would unpack to far more than 10,000 rows need, before unpacking it', async () => {
    // A good workbook with one more part of 11 MB of zeros (a few kB packed), which exceljs itself would ignore.
    const zip = await JSZip.loadAsync(await xlsx([['iccid'], [A]]));
    zip.file('xl/media/zeros.bin', Buffer.alloc(11 * 1024 * 1024));
    const bomb = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    expect(bomb.length).toBeLessThan(BULK_FILE_MAX_BYTES);
    expect(await parseBulkFile(bomb)).toEqual({ ok: false, errors: [expect.stringMatching(/går inte att läsa/)] });
    zip.remove('xl/media/zeros.bin');
    const good = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    expect(await parseBulkFile(good)).toMatchObject({ ok: true, rows: [{ iccid: A }] });
  });

  it('refuses a truncated workbook', async () => {
    const file = await xlsx([['iccid'], [A]]);
    const r = await parseBulkFile(file.slice(0, file.length - 40));
    expect(r).toEqual({ ok: false, errors: [expect.stringMatching(/går inte att läsa/)] });
  });
});

describe('the Taggar column', () => {
  it('reads a row’s tags, separated by commas, by its header name or as the 4th column without a header', async () => {
    const named = await parseBulkFile(
      utf8(`iccid;Taggar;fakturamärkning\n${A};"Göteborg,  Kylbilar ,Göteborg";Låda\n${B};;\n`),
    );
    expect(named.ok && named.rows).toEqual([
      { iccid: A, invoiceLineMark: 'Låda', tags: ['Göteborg', 'Kylbilar'] },
      { iccid: B },
    ]);
    const plain = await parseBulkFile(utf8(`${A},Låda,Not,"Syd, Nord"\n${B},,,`));
    expect(plain.ok && plain.rows).toEqual([
      { iccid: A, invoiceLineMark: 'Låda', invoiceLineNote: 'Not', tags: ['Syd', 'Nord'] },
      { iccid: B },
    ]);
    const book = await parseBulkFile(
      await xlsx([
        ['ICCID', 'tags'],
        [A, 'Kylbilar, Göteborg'],
      ]),
    );
    expect(book.ok && book.rows).toEqual([{ iccid: A, tags: ['Kylbilar', 'Göteborg'] }]);
  });

  it('refuses a bad tag or too many, naming the row', async () => {
    const tooLong = await parseBulkFile(utf8(`iccid,taggar\n${A},ok\n${B},${'x'.repeat(41)}`));
    expect(tooLong).toEqual({ ok: false, errors: ['Rad 3, Taggar: En tagg får vara högst 40 tecken.'] });
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',');
    const tooMany = await parseBulkFile(utf8(`iccid;taggar\n${A};"${many}"`));
    expect(tooMany).toEqual({ ok: false, errors: ['Rad 2, Taggar: Högst 20 taggar åt gången.'] });
  });
});
