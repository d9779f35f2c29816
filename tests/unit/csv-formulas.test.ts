// A cell that starts with whitespace before =, +, - or @ is a formula to a spreadsheet
// that trims on import, and is neutralised like one, in every CSV (one rule: looksLikeFormula) and in XLSX.
import { describe, expect, it } from 'vitest';
import { looksLikeFormula, safeText } from '#server/files/formula.ts';
import { csvText } from '#server/files/csv.ts';
import { bulkResultFile, resultRowsOf } from '#server/sims/bulk-downloads.ts';

const DANGEROUS = [
  '=1+1',
  '   =HYPERLINK("http://evil")',
  ' +46701234567',
  '\t-5',
  '\u00a0@SUM(1)',
  '\r\n=cmd',
  '\u2003=1',
  '\t',
  '\rx',
];
const HARMLESS = ['Lager 1', 'a=b', '46 +1', 'e-post@firma.se', '', '   ', 'Fordon - Volvo'];

describe('looksLikeFormula', () => {
  it.each(DANGEROUS)('takes %j for a formula', (v) => expect(looksLikeFormula(v)).toBe(true));
  it.each(HARMLESS)('leaves %j alone', (v) => expect(looksLikeFormula(v)).toBe(false));
});

describe('the CSV and XLSX cells', () => {
  it('put a quote before a formula with spaces in front, and write it as text in XLSX', () => {
    expect(csvText('   =HYPERLINK("http://evil")')).toBe(`"'   =HYPERLINK(""http://evil"")"`);
    expect(csvText(' +46')).toBe("' +46");
    expect(safeText('  @SUM(1)')).toEqual({ richText: [{ text: '  @SUM(1)' }] });
    expect(csvText('Lager 1')).toBe('Lager 1');
  });

  it('neutralise it in a bulk result file posted back by the browser', async () => {
    const rows = resultRowsOf(JSON.stringify([['  =HYPERLINK("http://x")', 'invalid']]))!;
    const csv = new TextDecoder().decode((await bulkResultFile('csv', rows)).body);
    expect(csv.split('\r\n')[1]!.startsWith(`"'  =HYPERLINK(""http://x"")";`)).toBe(true);
  });
});
