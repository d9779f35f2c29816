// The invoice workbook writes its month rows as XML strings (specRowXml) instead of through exceljs' row
// model. Pinned here: every file of the xlsx is byte for byte what exceljs' own addRow().commit() makes for
// the same rows (the reference below is the writer as it was), with texts that need escaping, formula-like
// texts (inline rich text), whitespace at the ends, control characters and empty values.
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dateFromDay, dayFromIso } from '#domain/export/periods.ts';
import {
  addSpecSheet,
  newWorkbook,
  SHEET_SUMMARY,
  SPEC_HEADER_ROW,
  specRowTexts,
  SUMMARY_COLUMNS,
  writeInvoiceSpecification,
  type PlanInfo,
  type SpecHeader,
  type SpecRow,
} from '#server/export/workbook.ts';

// exceljs' own zip reader (a dependency of exceljs), to compare the files inside the xlsx.
type Zip = { files: Record<string, { dir: boolean; async: (t: 'string') => Promise<string> }> };
const JSZip = createRequire(import.meta.url)('jszip') as { loadAsync: (b: Buffer) => Promise<Zip> };

function sink() {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _e, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

const plans: PlanInfo[] = [
  { id: 1, description: 'Bas 500 MB & <tal> "SMS"', dataLimit: 500, call: true, sms: true, roaming: false },
  { id: 2, description: "=Företag's plan", dataLimit: 10240, call: false, sms: true, roaming: true },
];
const texts = [
  'Fordon 1',
  '',
  ' leading and trailing ',
  'two\nlines',
  '=HYPERLINK("http://evil")',
  '+46 70 123',
  '-1',
  '@SUM(A1)',
  '=trailing space ',
  ' =space first',
  'tab\tinside',
  'bell\u0007 and del\u007f',
  "it's <b>&amp;</b>",
  'åäö ÅÄÖ € 😀',
];

function rows(): SpecRow[] {
  const out: SpecRow[] = [];
  for (let i = 0; i < 40; i++) {
    const from = dayFromIso(`2025-${String(1 + (i % 12)).padStart(2, '0')}-0${1 + (i % 9)}`);
    out.push({
      simId: Math.floor(i / 3),
      month: { year: 2025, month: 1 + (i % 12) },
      iccid: `89460000000000${String(i).padStart(5, '0')}`,
      invoiceLineMark: texts[i % texts.length]!,
      invoiceLineNote: texts[(i * 7) % texts.length]!,
      plan: plans[i % 2]!,
      from,
      to: from + (i % 20),
      days: 1 + (i % 20),
    });
  }
  return out;
}

const header: SpecHeader = {
  companyName: 'Åkeri & Söner <AB>',
  customerNumber: '=1+2',
  invoiceNote: ' Ref: "x" ',
  period: { start: { year: 2025, month: 1 }, end: { year: 2025, month: 12 } },
  generatedAt: '2026-01-01 12:00',
};

/** The month rows through exceljs' row model, as writeInvoiceSpecification wrote them before (the summary too). */
async function reference(out: Writable, h: SpecHeader, data: SpecRow[]) {
  const workbook = newWorkbook(out);
  const sheet = addSpecSheet(workbook, h); // the header block as the writer makes it; the month rows are compared
  for (const r of data) sheet.addRow([...specRowTexts(r), dateFromDay(r.from), dateFromDay(r.to), r.days]).commit();
  sheet.commit();
  // The summary sheet is not what is compared here (it is written through exceljs as before): its header only.
  const sum = workbook.addWorksheet(SHEET_SUMMARY, { views: [{ state: 'frozen', ySplit: 1 }] });
  sum.addRow(SUMMARY_COLUMNS.map((c) => c.header)).commit();
  sum.commit();
  await workbook.commit();
}

async function files(xlsx: Buffer): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(xlsx);
  const out = new Map<string, string>();
  for (const [name, f] of Object.entries(zip.files)) if (!f.dir) out.set(name, await f.async('string'));
  return out;
}

describe('invoice workbook rows', () => {
  it('are byte for byte the sheet XML exceljs writes for the same cells, batch after batch', async () => {
    const data = rows();
    const mine = sink();
    async function* batches() {
      yield data.slice(0, 7);
      yield [];
      yield data.slice(7);
    }
    expect((await writeInvoiceSpecification(mine.stream, header, batches())).rows).toBe(data.length);

    const theirs = sink();
    await reference(theirs.stream, header, data);

    const a = await files(mine.bytes());
    const b = await files(theirs.bytes());
    const sheet = a.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toBe(b.get('xl/worksheets/sheet1.xml'));
    // The tricky values really are in it: escaped, rich text for formula-like texts, preserved spaces.
    expect(sheet).toContain('t="inlineStr"><is><r><t>=HYPERLINK(&quot;http://evil&quot;)</t></r></is>');
    expect(sheet).toContain('<t xml:space="preserve">=trailing space </t>');
    expect(sheet).toContain('it&apos;s &lt;b&gt;&amp;amp;&lt;/b&gt;');
    expect(sheet).toContain('<v>bell and del</v>');
    expect(sheet.match(/<row /g)).toHaveLength(SPEC_HEADER_ROW - 1 + data.length);
    // Styles, content types, workbook: the same; only the summary sheet differs (the reference's is a header).
    for (const name of ['xl/styles.xml', '[Content_Types].xml', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels'])
      expect(a.get(name), name).toBe(b.get(name));
  });
});
