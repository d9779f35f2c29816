// Long: the workbook is read back cell by cell against one server and its SIMs.
// GET /api/export/getExcelV1 against the real server: the file is read back with exceljs and checked
// cell by cell; bad queries, other companies' SIMs and anonymous callers are refused.
import http from 'node:http';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim, SimEvent, User } from '#server/db/entities.ts';
import { yearMonthInZone } from '#domain/export/periods.ts';
import { exportMessages } from '#domain/export/query.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContext } from '#server/trpc/context.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

let server: TestServer;
const now = yearMonthInZone(new Date());
const Y = now.year - 1; // a whole year in the past: every month of it may be exported
const pad = (n: number) => String(n).padStart(2, '0');
const at = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d, 10)); // 11:00 or 12:00 in Stockholm

const ICCID_1 = '89460000000000000018';
const ICCID_2 = '89460000000000000026';
const ICCID_3 = '89460000000000000034';
const ICCID_B = '89469999999999999990';

beforeAll(async () => {
  server = await startTestServer({ logs: true });
  const em = server.services.orm.em.fork();
  const plans = new Map((await em.find(RatePlan, {})).map((p) => [p.code, p]));
  const plan = (code: string) => plans.get(code)!;

  const firma = em.create(Company, {
    name: '=2+3 Firma AB',
    customerNumber: 'X-1',
    invoiceNote: '-ref Inköp',
    invoiceInterval: 'quarterly',
  });
  const other = em.create(Company, {
    name: 'Annan AB',
    customerNumber: 'B-1',
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  em.create(User, { email: 'xena@firma.se', name: 'Xena', company: firma });
  em.create(User, { email: 'bo@annan.se', name: 'Bo', company: other });
  const sim = (
    company: Company,
    iccid: string,
    mark: string,
    note: string,
    history: Array<[SimEvent['kind'], Date, string]>,
  ) => {
    const last = history.at(-1)!;
    const s = em.create(Sim, {
      iccid,
      company,
      ratePlan: plan(last[2]),
      invoiceLineMark: mark,
      invoiceLineNote: note,
      status: last[0] === 'deactivated' ? 'deactivated' : 'active',
      activatedAt: history[0]![1],
      deactivatedAt: last[0] === 'deactivated' ? last[1] : null,
    });
    for (const [kind, when, code] of history)
      em.create(SimEvent, { sim: s, kind, ratePlan: plan(code), at: when, before: null, after: null });
  };
  sim(firma, ICCID_1, '=HYPERLINK("http://evil.example","klicka")', '+46701234567', [
    ['activated', at(Y, 1, 15), 'DATA-5000'],
  ]);
  sim(firma, ICCID_2, 'Lager', 'Handdator', [
    ['activated', at(Y, 2, 1), 'DATA-1000'],
    ['updated', at(Y, 2, 4), 'DATA-1000'],
    ['planChanged', at(Y, 2, 10), 'DATA-5000-TS'],
    ['deactivated', at(Y, 3, 5), 'DATA-5000-TS'],
  ]);
  sim(firma, ICCID_3, '@SUM(1)', '-5', [['activated', at(Y - 1, 6, 1), 'DATA-1500-R']]);
  // Outside the period: deactivated before it starts.
  sim(firma, '89460000000000000042', 'Gammal', '', [
    ['activated', at(Y - 1, 1, 1), 'DATA-500'],
    ['deactivated', at(Y - 1, 12, 20), 'DATA-500'],
  ]);
  sim(other, ICCID_B, 'Annan', '', [['activated', at(Y - 1, 1, 1), 'DATA-500']]);
  await em.flush();
});
afterAll(async () => {
  await server?.stop();
});

const url = (q: Record<string, string | number>) =>
  `${server.url}/api/export/getExcelV1?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`;
const period = (sy: number, sm: number | string, ey: number, em: number | string) => ({
  start_year: sy,
  start_month: sm,
  end_year: ey,
  end_month: em,
});

/** A GET with exactly these headers (fetch() would set Sec-Fetch-Mode itself). */
function rawGet(
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(target, { headers }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      })
      .on('error', reject);
  });
}

async function download(email: string, q: Record<string, string | number>) {
  const res = await fetch(url(q), { headers: { cookie: await server.sessionCookie(email) } });
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await res.arrayBuffer());
  return { res, workbook };
}

/** Data rows of "Specifikation" (after the header row 7) as plain values. */
function specRows(ws: ExcelJS.Worksheet) {
  const rows: unknown[][] = [];
  ws.eachRow((row, n) => {
    if (n <= 7) return;
    rows.push(
      (row.values as unknown[])
        .slice(1)
        .map((v) =>
          v instanceof Date
            ? v.toISOString().slice(0, 10)
            : v && typeof v === 'object' && 'richText' in v
              ? (v as ExcelJS.CellRichTextValue).richText.map((r) => r.text).join('')
              : v,
        ),
    );
  });
  return rows;
}

describe('GET /api/export/getExcelV1', () => {
  it('streams the workbook with the file name as typed, both sheets, one row per SIM, month and plan period', async () => {
    const { res, workbook } = await download('xena@firma.se', period(Y, 1, Y, '03'));
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Sim_export${Y}1-${Y}03.xlsx"`);
    expect(res.headers.get('content-length')).toBeNull(); // streamed, not buffered

    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Specifikation', 'Sammanställning', 'Förbrukning']);
    const ws = workbook.getWorksheet('Specifikation')!;
    expect([1, 2, 3, 4].map((r) => ws.getCell(r, 1).value)).toEqual([
      'Företag',
      'Kundnummer',
      'Fakturanotering',
      'Period',
    ]);
    expect(ws.getCell('B1').text).toBe('=2+3 Firma AB');
    expect(ws.getCell('B2').value).toBe('X-1');
    expect(ws.getCell('B3').text).toBe('-ref Inköp');
    expect(ws.getCell('B4').value).toBe(`${Y}-01 – ${Y}-03`);
    expect(ws.getCell('A5').value).toBe('Skapad');
    expect(ws.getCell('B5').text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect((ws.getRow(7).values as unknown[]).slice(1)).toEqual([
      'Månad',
      'ICCID',
      'Fakturamärkning',
      'Fakturakommentar',
      'Abonnemang',
      'Datamängd',
      'Tal & SMS',
      'Roaming',
      'Aktiv från',
      'Aktiv till',
      'Aktiva dagar',
    ]);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 7 });
    expect(ws.autoFilter).toBe('A7:K7');
    expect(ws.getColumn(2).width).toBe(24);

    const feb = new Date(Date.UTC(Y, 2, 0)).getUTCDate();
    const m = (n: number) => `${Y}-${pad(n)}`;
    // An expected row: the month, the SIM's columns from ICCID to Roaming, active from and to (days of that month)
    // and the days active.
    const row = (n: number, sim: unknown[], from: number, to: number, days: number) => [
      m(n),
      ...sim,
      `${m(n)}-${pad(from)}`,
      `${m(n)}-${pad(to)}`,
      days,
    ];
    const hyperlink = '=HYPERLINK("http://evil.example","klicka")';
    const sim1 = [ICCID_1, hyperlink, '+46701234567', 'Data 5 GB', '5 GB', 'Nej', 'Nej'];
    const sim2Before = [ICCID_2, 'Lager', 'Handdator', 'Data 1 GB', '1 GB', 'Nej', 'Nej'];
    const sim2After = [ICCID_2, 'Lager', 'Handdator', 'Data 5 GB med tal & SMS', '5 GB', 'Ja', 'Nej'];
    const sim3 = [ICCID_3, '@SUM(1)', '-5', 'Data 1,5 GB med roaming', '1,5 GB', 'Nej', 'Ja'];
    expect(specRows(ws)).toEqual([
      row(1, sim1, 15, 31, 17),
      row(2, sim1, 1, feb, feb),
      row(3, sim1, 1, 31, 31),
      row(2, sim2Before, 1, 9, 9),
      row(2, sim2After, 10, feb, feb - 9),
      row(3, sim2After, 1, 5, 5),
      row(1, sim3, 1, 31, 31),
      row(2, sim3, 1, feb, feb),
      row(3, sim3, 1, 31, 31),
    ]);

    // ICCIDs are text cells with all 20 digits, in a text-formatted column.
    for (let r = 8; r <= 16; r++) {
      const cell = ws.getCell(r, 2);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toMatch(/^\d{20}$/);
      expect(cell.numFmt).toBe('@');
      expect(ws.getCell(r, 9).type).toBe(ExcelJS.ValueType.Date);
      expect(ws.getCell(r, 11).type).toBe(ExcelJS.ValueType.Number);
    }
    // Formula-like user texts are text, never formulas, anywhere in the workbook.
    expect(ws.getCell('C8').type).toBe(ExcelJS.ValueType.RichText);
    expect(ws.getCell('C8').numFmt).toBe('@');
    let cells = 0;
    for (const sheet of workbook.worksheets) {
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          cells++;
          expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
          expect(cell.formula).toBeUndefined();
        }),
      );
    }
    expect(cells).toBeGreaterThan(100);

    const sum = workbook.getWorksheet('Sammanställning')!;
    const summary: unknown[][] = [];
    sum.eachRow((row) => summary.push((row.values as unknown[]).slice(1)));
    expect(summary).toEqual([
      ['Månad', 'Abonnemang', 'Antal SIM-kort', 'SIM-dagar'],
      [m(1), 'Data 1,5 GB med roaming', 1, 31],
      [m(1), 'Data 5 GB', 1, 17],
      [m(2), 'Data 1 GB', 1, 9],
      [m(2), 'Data 1,5 GB med roaming', 1, feb],
      [m(2), 'Data 5 GB', 1, feb],
      [m(2), 'Data 5 GB med tal & SMS', 1, feb - 9],
      [m(3), 'Data 1,5 GB med roaming', 1, 31],
      [m(3), 'Data 5 GB', 1, 31],
      [m(3), 'Data 5 GB med tal & SMS', 1, 5],
    ]);
  });

  it('shows a user of one company none of another company’s SIMs', async () => {
    const a = specRows((await download('xena@firma.se', period(Y, 1, Y, 12))).workbook.getWorksheet('Specifikation')!);
    expect(a.length).toBeGreaterThan(0);
    expect(a.some((r) => r[1] === ICCID_B)).toBe(false);
    const b = specRows((await download('bo@annan.se', period(Y, 1, Y, 12))).workbook.getWorksheet('Specifikation')!);
    expect(b).toHaveLength(12);
    expect(new Set(b.map((r) => r[1]))).toEqual(new Set([ICCID_B]));
    const demo = specRows(
      (await download('anna@demo.test', period(Y, 1, Y, 12))).workbook.getWorksheet('Specifikation')!,
    );
    expect(demo.some((r) => [ICCID_1, ICCID_2, ICCID_3, ICCID_B].includes(r[1] as string))).toBe(false);
  });

  it('exports the acting company for a super admin', async () => {
    const em = server.services.orm.em.fork();
    const firma = await em.findOneOrFail(Company, { customerNumber: 'X-1' });
    const ctx = await createContext({
      services: server.services,
      headers: new Headers({ cookie: await server.sessionCookie('admin@demo.test') }),
      requestId: 't',
      ip: '127.0.0.1',
    });
    await createCaller(ctx).admin.loginAsCompany({ companyId: firma.id });
    const cookie = ctx.resHeaders.get('set-cookie')!.split(';')[0]!;
    const res = await fetch(url(period(Y, 1, Y, 3)), { headers: { cookie } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const rows = specRows(workbook.getWorksheet('Specifikation')!);
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set([ICCID_1, ICCID_2, ICCID_3]));
  });

  it('answers 400 { error } in Swedish for each bad query', async () => {
    const cookie = await server.sessionCookie('xena@firma.se');
    const next = now.month === 12 ? { y: now.year + 1, m: 1 } : { y: now.year, m: now.month + 1 };
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ start_month: 1, end_year: Y, end_month: 3 }, exportMessages.missing('start_year')],
      [period(Y, 'x', Y, 3), exportMessages.notInteger('start_month')],
      [period(Y, '1.5', Y, 3), exportMessages.notInteger('start_month')],
      [period(Y, 0, Y, 3), exportMessages.month('start_month')],
      [period(Y, 1, Y, 13), exportMessages.month('end_month')],
      [period(1999, 1, Y, 3), exportMessages.year('start_year')],
      [period(Y, 1, 2101, 3), exportMessages.year('end_year')],
      [period(Y, 5, Y, 4), exportMessages.order],
      [period(Y - 3, 1, Y, 1), exportMessages.tooLong],
      [period(next.y, next.m, next.y, next.m), exportMessages.future],
    ];
    for (const [q, message] of cases) {
      const res = await fetch(url(q), { headers: { cookie } });
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = await res.json();
      expect(body.error).toBe(message);
      expect(body.issues[0].message).toBe(message);
    }
  });

  it('sends a browser navigation with a bad query back to the form, values kept', async () => {
    const res = await rawGet(url(period(Y, 5, Y, 4)), {
      cookie: await server.sessionCookie('xena@firma.se'),
      'sec-fetch-mode': 'navigate',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/export?start_year=${Y}&start_month=5&end_year=${Y}&end_month=4`);
    const page = await fetch(server.url + res.location, {
      headers: { cookie: await server.sessionCookie('xena@firma.se') },
    });
    const html = await page.text();
    expect(html).toContain(exportMessages.order);
    expect(html).toMatch(new RegExp(`name="start_month"[^>]*value="5"`));
  });

  it('answers 401 to an anonymous caller, and sends an anonymous browser to the login', async () => {
    const res = await fetch(url(period(Y, 1, Y, 3)));
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('Du är inte inloggad.');
    const nav = await rawGet(url(period(Y, 1, Y, 3)), { 'sec-fetch-mode': 'navigate' });
    expect(nav.status).toBe(302);
    expect(nav.location).toBe('/login?redirectTo=%2Fexport');
  });

  it('the form starts at the previous full invoicing period of the company', async () => {
    const html = await (
      await fetch(server.url + '/export', { headers: { cookie: await server.sessionCookie('xena@firma.se') } })
    ).text();
    const q = Math.floor((now.month - 1) / 3); // current quarter, 0-based
    const start = q === 0 ? { y: now.year - 1, m: 10 } : { y: now.year, m: (q - 1) * 3 + 1 };
    expect(html).toMatch(new RegExp(`name="start_year"[^>]*value="${start.y}"`));
    expect(html).toMatch(new RegExp(`name="start_month"[^>]*value="${start.m}"`));
    expect(html).toMatch(new RegExp(`name="end_month"[^>]*value="${start.m + 2}"`));
    expect(html).toMatch(/name="start_month"[^>]*min="1"[^>]*max="12"/);
    expect(html).toContain('action="/api/export/getExcelV1"');
  });

  it('writes while it reads: a SIM added after the first bytes were sent is in the file', async () => {
    // 2,000 SIMs of a new company make four batches; reading stops after the first chunk, so the writer
    // waits (backpressure) and the last batch is read from the database only after the insert below.
    const em = server.services.orm.em.fork();
    const big = em.create(Company, {
      name: 'Stor AB',
      customerNumber: 'S-1',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    em.create(User, { email: 'stina@stor.se', name: 'Stina', company: big });
    await em.flush();
    const planId = (await em.findOneOrFail(RatePlan, { code: 'DATA-5000' })).id;
    await em.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '8947' || lpad(g::text, 16, '0'), ?, ?, 'Bil ' || g, '', 'active', ? from generate_series(1, 2000) g`,
      [big.id, planId, at(Y - 1, 1, 1)],
    );
    await em.execute(
      `insert into sim_event (sim_id, kind, rate_plan_id, at) select id, 'activated', rate_plan_id, activated_at from sim where company_id = ?`,
      [big.id],
    );

    const ctx = await createContext({
      services: server.services,
      headers: new Headers({ cookie: await server.sessionCookie('stina@stor.se') }),
      requestId: 't',
      ip: '127.0.0.1',
    });
    const file = await createCaller(ctx).export.invoiceSpecification({
      start_year: String(Y),
      start_month: '1',
      end_year: String(Y),
      end_month: '12',
    });
    expect(file.filename).toBe(`Sim_export${Y}1-${Y}12.xlsx`);
    const reader = file.stream.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value!);
    const late = '89469999999999999999';
    const fresh = em.fork();
    const s = fresh.create(Sim, {
      iccid: late,
      company: big.id,
      ratePlan: planId,
      invoiceLineMark: 'Sen',
      status: 'active',
      activatedAt: at(Y, 6, 1),
    });
    fresh.create(SimEvent, { sim: s, kind: 'activated', ratePlan: planId, at: at(Y, 6, 1), before: null, after: null });
    await fresh.flush();
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      chunks.push(r.value);
    }
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(Buffer.concat(chunks)).buffer);
    const rows = specRows(workbook.getWorksheet('Specifikation')!);
    expect(rows).toHaveLength(2000 * 12 + 7);
    expect(rows.filter((r) => r[1] === late)).toHaveLength(7);
  });

  it('survives a download cancelled half-way, in process and over HTTP', async () => {
    const cookie = await server.sessionCookie('stina@stor.se');
    const ctx = await createContext({
      services: server.services,
      headers: new Headers({ cookie }),
      requestId: 't',
      ip: '127.0.0.1',
    });
    const file = await createCaller(ctx).export.invoiceSpecification(period(Y, 1, Y, 12));
    const reader = file.stream.getReader();
    await reader.read();
    await reader.cancel();

    const controller = new AbortController();
    const res = await fetch(url(period(Y, 1, Y, 12)), { headers: { cookie }, signal: controller.signal });
    expect(res.status).toBe(200);
    await res.body!.getReader().read();
    controller.abort();
    // Both cancels are noticed as such (not as a failed export) before the server is asked again.
    const cancelled = () => server.logs.filter((l) => /download cancelled/.test(l.msg)).length;
    await expect.poll(cancelled, { timeout: 15_000 }).toBe(2);
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);

    // Still serving, and the next export is whole.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const { workbook } = await download('xena@firma.se', period(Y, 1, Y, 3));
    expect(specRows(workbook.getWorksheet('Specifikation')!)).toHaveLength(9);
  });
});
