// The invoice specification's sheet "Förbrukning" (issue 39), on the demo data and its seeded usage (PGlite or
// PostgreSQL): each SIM of the specification per month of the period with its month totals (bytes up, down, total
// and GB), ICCIDs as text like the other sheets, user texts never formulas, read a page of SIMs at a time; and the
// two existing sheets byte for byte what they were without it (customers' systems read them).
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { addMonths, dayInZone, formatYearMonth, yearMonthInZone, type Period } from '#domain/export/periods.ts';
import { invoiceSpecification, loadPlans, specificationRows } from '#server/export/invoice-specification.ts';
import { SHEET_USAGE, usageRows } from '#server/export/usage-sheet.ts';
import { writeInvoiceSpecification, type SpecHeader, type SpecRow } from '#server/export/workbook.ts';
import { createLogger } from '#server/log.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';

const db = useDemoOrm();
const now = new Date();
const current = yearMonthInZone(now);
const period: Period = { start: addMonths(current, -3), end: current };

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

async function files(xlsx: Buffer): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(xlsx);
  const out = new Map<string, string>();
  for (const [name, f] of Object.entries(zip.files)) if (!f.dir) out.set(name, await f.async('string'));
  return out;
}

async function collect<T>(gen: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const batch of gen) out.push(...batch);
  return out;
}

const header: SpecHeader = {
  companyName: 'Demo AB',
  customerNumber: '100001',
  invoiceNote: '=1+2',
  period,
  generatedAt: '2026-01-01 12:00',
};

async function download(): Promise<ExcelJS.Workbook> {
  const em = db.orm.em.fork();
  const [company] = await em.execute<Array<{ id: number; name: string; customer_number: string }>>(
    `select id, name, customer_number from company where id = ?`,
    [db.companyId],
  );
  if (!company) throw new Error('no Demo AB');
  const typed = { start_year: '', start_month: '', end_year: '', end_month: '' };
  const file = await invoiceSpecification(
    em,
    createLogger('silent'),
    { id: company.id, name: company.name, customerNumber: company.customer_number, invoiceNote: '' },
    { ...period, typed },
    now,
  );
  const bytes = Buffer.from(await new Response(file.stream).arrayBuffer());
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('the sheet "Förbrukning"', () => {
  it('leaves the two existing sheets byte for byte as they were, and their styles', async () => {
    const em = db.orm.em.fork();
    const opts = { today: dayInZone(now), plans: await loadPlans(em) };
    const spec: SpecRow[] = await collect(specificationRows(em, db.companyId, period, opts));
    expect(spec.length).toBeGreaterThan(0);
    async function* once<T>(rows: T[]) {
      yield rows;
    }
    const before = sink();
    await writeInvoiceSpecification(before.stream, header, once(spec));
    const after = sink();
    const usage = usageRows(em, db.companyId, period, { today: dayInZone(now) });
    const written = await writeInvoiceSpecification(after.stream, header, once(spec), usage);
    expect(written.usageRows).toBeGreaterThan(0);
    const a = await files(before.bytes());
    const b = await files(after.bytes());
    for (const name of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml'])
      expect(b.get(name), name).toBe(a.get(name));
    expect(b.get('xl/worksheets/sheet3.xml')).toContain('<row r="2"');
    // The cell styles the two sheets use keep their ids: the new sheet's styles only come after them.
    const xfs = (styles: string | undefined) => /<cellXfs[^>]*>(.*)<\/cellXfs>/s.exec(styles ?? '')?.[1] ?? '';
    const old = xfs(a.get('xl/styles.xml'));
    expect(old.length).toBeGreaterThan(0);
    expect(xfs(b.get('xl/styles.xml')).startsWith(old)).toBe(true);
  });

  it('has each SIM per month of the period with its month totals, ICCIDs as text, in the download', async () => {
    const workbook = await download();
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Specifikation', 'Sammanställning', SHEET_USAGE]);
    const ws = workbook.getWorksheet(SHEET_USAGE);
    if (!ws) throw new Error('no sheet');
    const got: unknown[][] = [];
    ws.eachRow((row) => got.push((row.values as unknown[]).slice(1)));
    expect(got[0]).toEqual([
      'Månad',
      'ICCID',
      'Fakturamärkning',
      'Uppladdat (byte)',
      'Nedladdat (byte)',
      'Totalt (byte)',
      'Totalt (GB)',
    ]);
    const totals = await db.orm.em
      .fork()
      .execute<Array<{ iccid: string; mark: string; month: string; up: string; down: string }>>(
        `select s.iccid, s.invoice_line_mark as mark, to_char(m.month, 'YYYY-MM') as month, m.bytes_up as up,
         m.bytes_down as down
       from sim s join usage_month m on m.company_id = s.company_id and m.sim_id = s.id
       where s.company_id = ? and s.status = 'active' and m.month >= ?::date order by s.id, m.month`,
        [db.companyId, `${formatYearMonth(period.start)}-01`],
      );
    const months = [0, 1, 2, 3].map((i) => formatYearMonth(addMonths(period.start, i)));
    const active = await db.orm.em
      .fork()
      .execute<Array<{ iccid: string; mark: string }>>(
        `select iccid, invoice_line_mark as mark from sim where company_id = ? and status = 'active' order by id`,
        [db.companyId],
      );
    const expected = active.flatMap((s) =>
      months.map((month) => {
        const t = totals.find((r) => r.iccid === s.iccid && r.month === month);
        const up = Number(t?.up ?? 0);
        const down = Number(t?.down ?? 0);
        return [month, s.iccid, s.mark, up, down, up + down, Math.round((up + down) / 1e6) / 1000];
      }),
    );
    expect(got.slice(1)).toEqual(expected);
    // The seed's usage is in it: the SIM near its limit used gigabytes this month.
    expect(expected.some((r) => r[0] === months[3] && Number(r[6]) > 4)).toBe(true);
    for (let r = 2; r <= got.length; r++) {
      expect(ws.getCell(r, 2).type).toBe(ExcelJS.ValueType.String);
      expect(ws.getCell(r, 2).numFmt).toBe('@');
      expect(ws.getCell(r, 6).type).toBe(ExcelJS.ValueType.Number);
    }
  });

  it('writes a formula-like mark as text, never a formula', async () => {
    const em = db.orm.em.fork();
    await em.execute(
      `update sim set invoice_line_mark = '=HYPERLINK("http://evil")' where company_id = ? and id =
      (select min(id) from sim where company_id = ? and status = 'active')`,
      [db.companyId, db.companyId],
    );
    const ws = (await download()).getWorksheet(SHEET_USAGE);
    if (!ws) throw new Error('no sheet');
    expect(ws.getCell('C2').type).toBe(ExcelJS.ValueType.RichText);
    expect(ws.getCell('C2').numFmt).toBe('@');
    ws.eachRow((row) => row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)));
  });

  it('reads the SIMs a page at a time: the same rows whatever the page size', async () => {
    const em = db.orm.em.fork();
    const today = dayInZone(now);
    const whole = await collect(usageRows(em, db.companyId, period, { today }));
    let pages = 0;
    const paged: unknown[] = [];
    for await (const batch of usageRows(em, db.companyId, period, { today, batchSize: 1 })) {
      pages++;
      paged.push(...batch);
    }
    expect(paged).toEqual(whole);
    expect(pages).toBeGreaterThanOrEqual(4);
    // A period in the future has no rows; one before the SIMs' activation neither.
    expect(
      await collect(
        usageRows(em, db.companyId, { start: addMonths(current, 1), end: addMonths(current, 2) }, { today }),
      ),
    ).toEqual([]);
    expect(
      await collect(
        usageRows(em, db.companyId, { start: { year: 2000, month: 1 }, end: { year: 2000, month: 2 } }, { today }),
      ),
    ).toEqual([]);
  });
});
