// Long: the CSV and the XLSX are parsed back strictly against one server and its SIMs.
// GET /api/sim/export against the real server: the CSV is parsed back strictly (BOM, semicolons, CRLF, RFC 4180
// quoting) and the XLSX read with exceljs; the search, the company scope, the refusals, a 5,000-SIM list read in
// batches, and a download cancelled half-way.
import http from 'node:http';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeTags } from '#server/sims/tags.ts';
import { Company, RatePlan, Sim, User } from '#server/db/entities.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContext } from '#server/trpc/context.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

let server: TestServer;

const ICCID_1 = '89460000000000000018';
const ICCID_2 = '89460000000000000026';
const ICCID_3 = '89460000000000000034';
const ICCID_OLD = '89460000000000000042';
const ICCID_OTHER = '89469999999999999990';
const HYPERLINK = '=HYPERLINK("http://evil.example";"klicka")';
const BIG = 5000;

beforeAll(async () => {
  server = await startTestServer({ logs: true });
  const em = server.services.orm.em.fork();
  const plans = new Map((await em.find(RatePlan, {})).map((p) => [p.code, p]));
  const company = (name: string, customerNumber: string) =>
    em.create(Company, { name, customerNumber, invoiceNote: '', invoiceInterval: 'monthly' });
  const firma = company('Firma AB', 'F-1');
  const other = company('Annan AB', 'A-1');
  const big = company('Stor AB', 'S-1');
  em.create(User, { email: 'xena@firma.se', name: 'Xena', company: firma });
  em.create(User, { email: 'bo@annan.se', name: 'Bo', company: other });
  em.create(User, { email: 'stina@stor.se', name: 'Stina', company: big });
  const sim = (company: Company, iccid: string, code: string, mark: string, note: string, at: string, active = true) =>
    em.create(Sim, {
      iccid,
      company,
      ratePlan: plans.get(code)!,
      invoiceLineMark: mark,
      invoiceLineNote: note,
      status: active ? 'active' : 'deactivated',
      activatedAt: new Date(at),
      deactivatedAt: active ? null : new Date(at),
    });
  // Summer (UTC+2) and winter (UTC+1) in Stockholm.
  sim(firma, ICCID_1, 'DATA-5000', HYPERLINK, '+46701234567', '2025-07-01T22:30:00Z');
  sim(firma, ICCID_2, 'DATA-5000-TSR', 'Lager; hylla "B"', 'rad 1\nrad 2', '2025-01-15T09:05:00Z');
  sim(firma, ICCID_3, 'DATA-1000', '@SUM(1)', '-5', '2024-12-31T23:59:00Z');
  sim(firma, ICCID_OLD, 'DATA-500', 'Avaktiverad', '', '2024-01-01T10:00:00Z', false);
  sim(other, ICCID_OTHER, 'DATA-500', 'Lager hos Annan', '', '2025-08-01T10:00:00Z');
  await em.flush();
  // A long list, ten SIMs per activation time (with microseconds), so the keyset must break ties by id.
  await em.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select '8946' || lpad(g::text, 15, '0') || '0', ?, ?, 'Box ' || (g % 50), '', 'active',
            timestamptz '2025-06-01 10:00:00.123456+00' - (g / 10) * interval '1 minute'
       from generate_series(1, ${BIG}) g`,
    [big.id, plans.get('DATA-500')!.id],
  );
});
afterAll(async () => {
  await server?.stop();
});

const url = (q: Record<string, string>) => `${server.url}/api/sim/export?${new URLSearchParams(q)}`;

async function get(email: string | null, q: Record<string, string>) {
  const headers: Record<string, string> = email ? { cookie: await server.sessionCookie(email) } : {};
  return fetch(url(q), { headers });
}

/** A strict RFC 4180 reader with ; between fields and CRLF after every record: anything else throws. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote < 0) throw new Error('unterminated quote');
          field += text.slice(i, quote);
          i = quote + 1;
          if (text[i] === '"') {
            field += '"';
            i++;
          } else break;
        }
      } else {
        const end = text.slice(i).search(/[;\r"\n]/);
        field = end < 0 ? text.slice(i) : text.slice(i, i + end);
        if (text[i + field.length] === '"' || text[i + field.length] === '\n') throw new Error(`bad field at ${i}`);
        i += field.length;
      }
      record.push(field);
      if (text[i] === ';') i++;
      else if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      } else throw new Error(`expected ; or CRLF at ${i}`);
    }
    records.push(record);
  }
  return records;
}

async function csv(email: string, q: Record<string, string> = {}) {
  const res = await get(email, { format: 'csv', ...q });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  return { res, text, records: parseCsv(text) };
}

async function xlsx(email: string, q: Record<string, string> = {}) {
  const res = await get(email, { format: 'xlsx', ...q });
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await res.arrayBuffer());
  return { res, sheet: workbook.getWorksheet('SIM-kort')! };
}

const HEADERS = [
  'ICCID',
  'Abonnemangskod',
  'Abonnemang',
  'Datamängd',
  'Tal & SMS',
  'Roaming',
  'Fakturamärkning',
  'Fakturakommentar',
  'Aktiverat',
  // Usage (issue 39): this Swedish month's bytes, the share of the plan, the last sighting (none here).
  'Förbrukning i månaden (byte)',
  'Andel av datamängden (%)',
  'Senast sedd',
  'Nät',
  'Land',
  // The state (issue 40: active or paused) and the tags, in one cell.
  'Status',
  'Taggar',
];
/** No usage this month, never seen, active, no tags. */
const NO_USAGE = ['0', '0', '', '', '', 'Aktiv', ''];
const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(new Date());

describe('GET /api/sim/export', () => {
  it('CSV: BOM, semicolons, CRLF, RFC 4180 quoting, 20-digit ICCIDs kept as text, formulas neutralised', async () => {
    const { res, records } = await csv('xena@firma.se');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="SIM-kort_${today}.csv"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(records).toEqual([
      HEADERS,
      // Newest first, as the list; Stockholm time; the ICCID behind a tab, and quoted for it.
      [
        '\t' + ICCID_1,
        'DATA-5000',
        'Data 5 GB',
        '5 GB',
        'Nej',
        'Nej',
        `'${HYPERLINK}`,
        "'+46701234567",
        '2025-07-02 00:30',
        ...NO_USAGE,
      ],
      [
        '\t' + ICCID_2,
        'DATA-5000-TSR',
        'Data 5 GB med tal & SMS och roaming',
        '5 GB',
        'Ja',
        'Ja',
        'Lager; hylla "B"',
        'rad 1\nrad 2',
        '2025-01-15 10:05',
        ...NO_USAGE,
      ],
      [
        '\t' + ICCID_3,
        'DATA-1000',
        'Data 1 GB',
        '1 GB',
        'Nej',
        'Nej',
        "'@SUM(1)",
        "'-5",
        '2025-01-01 00:59',
        ...NO_USAGE,
      ],
    ]);
  });

  it('CSV: the bytes as written (quotes only where RFC 4180 needs them)', async () => {
    const { text } = await csv('xena@firma.se', { q: 'lager' });
    expect(text).toBe(
      HEADERS.join(';') +
        '\r\n' +
        `"\t${ICCID_2}";DATA-5000-TSR;Data 5 GB med tal & SMS och roaming;5 GB;Ja;Ja;"Lager; hylla ""B""";"rad 1\nrad 2";2025-01-15 10:05;0;0;;;;Aktiv;\r\n`,
    );
  });

  it('XLSX: text cells for ICCIDs and marks, formulas kept as text, dates in Stockholm time', async () => {
    const { res, sheet } = await xlsx('xena@firma.se');
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="SIM-kort_${today}.xlsx"`);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
    expect(sheet.rowCount).toBe(4);
    const iccid = sheet.getCell('A2');
    expect(iccid.type).toBe(ExcelJS.ValueType.String);
    expect(iccid.value).toBe(ICCID_1);
    expect(iccid.numFmt).toBe('@');
    expect([2, 3, 4].map((r) => sheet.getCell(r, 1).value)).toEqual([ICCID_1, ICCID_2, ICCID_3]);
    // A mark that looks like a formula is a rich-text string in a text column: never a formula cell.
    for (const ref of ['G2', 'H2', 'G4', 'H4']) {
      expect(sheet.getCell(ref).type).toBe(ExcelJS.ValueType.RichText);
      expect(sheet.getCell(ref).numFmt).toBe('@');
    }
    expect(sheet.getCell('G2').text).toBe(HYPERLINK);
    expect(sheet.getCell('H4').text).toBe('-5');
    let formulas = 0;
    sheet.eachRow((row) => row.eachCell((cell) => void (cell.type === ExcelJS.ValueType.Formula && formulas++)));
    expect(formulas).toBe(0);
    expect((sheet.getRow(3).values as unknown[]).slice(1, 9)).toEqual([
      ICCID_2,
      'DATA-5000-TSR',
      'Data 5 GB med tal & SMS och roaming',
      '5 GB',
      'Ja',
      'Ja',
      'Lager; hylla "B"',
      'rad 1\nrad 2',
    ]);
    expect(sheet.getCell('I2').value).toEqual(new Date(Date.UTC(2025, 6, 2, 0, 30)));
    expect(sheet.getCell('I2').numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getCell('I4').value).toEqual(new Date(Date.UTC(2025, 0, 1, 0, 59)));
  });

  it('exports what the /sims search finds: by ICCID, mark, comment or plan, % taken literally', async () => {
    const iccids = async (q: string) => (await csv('xena@firma.se', { q })).records.slice(1).map((r) => r[0]!.trim());
    expect(await iccids('0000000026')).toEqual([ICCID_2]);
    expect(await iccids('HYLLA')).toEqual([ICCID_2]);
    expect(await iccids('+4670')).toEqual([ICCID_1]);
    expect(await iccids('roaming')).toEqual([ICCID_2]);
    expect(await iccids('%')).toEqual([]);
    expect(await iccids('  ')).toEqual([ICCID_1, ICCID_2, ICCID_3]);
    const { sheet } = await xlsx('xena@firma.se', { q: '@SUM' });
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getCell('A2').value).toBe(ICCID_3);
  });

  it('exports the tags in one cell, a formula-like one as text, and ?tag= as the list filters it (issue 40)', async () => {
    const em = server.services.orm.em.fork();
    const idOf = async (iccid: string) => (await em.findOneOrFail(Sim, { iccid, status: 'active' })).id;
    const firma = (await em.findOneOrFail(Sim, { iccid: ICCID_2 }, { populate: ['company'] })).company.id;
    await changeTags(em, firma, { ids: [await idOf(ICCID_2)], add: ['Lager', '=cmd|x'], remove: [] });
    await changeTags(em, firma, { ids: [await idOf(ICCID_3)], add: ['Lager'], remove: [] });
    const { records } = await csv('xena@firma.se', { tag: 'Lager' });
    expect(records.slice(1).map((r) => [r[0]?.trim(), r.at(-1)])).toEqual([
      [ICCID_2, "'=cmd|x, Lager"],
      [ICCID_3, 'Lager'],
    ]);
    const { sheet } = await xlsx('xena@firma.se', { tag: 'Lager' });
    expect(sheet.rowCount).toBe(3);
    const cell = sheet.getCell(2, HEADERS.length);
    expect(cell.type).toBe(ExcelJS.ValueType.RichText);
    expect(cell.text).toBe('=cmd|x, Lager');
    await changeTags(em, firma, { q: '', add: [], remove: ['Lager', '=cmd|x'] });
  });

  it('exports in the order and with the usage filter of the /sims link (sort, filter), as the page reads them', async () => {
    const iccids = async (q: Record<string, string>) =>
      (await csv('xena@firma.se', q)).records.slice(1).map((r) => r[0]?.trim());
    expect(await iccids({ sort: 'activated-asc' })).toEqual([ICCID_3, ICCID_2, ICCID_1]);
    // None of these SIMs was ever seen: all are "never"; none has traffic over 80 %.
    expect(await iccids({ filter: 'never' })).toEqual([ICCID_1, ICCID_2, ICCID_3]);
    expect(await iccids({ filter: 'over80' })).toEqual([]);
    // A value the page does not know is its default, as /sims reads it.
    expect(await iccids({ sort: 'sideways' })).toEqual([ICCID_1, ICCID_2, ICCID_3]);
  });

  it("never shows another company's SIMs, nor deactivated ones", async () => {
    const mine = (await csv('xena@firma.se')).text;
    expect(mine).not.toContain(ICCID_OTHER);
    expect(mine).not.toContain(ICCID_OLD);
    expect((await csv('xena@firma.se', { q: 'Annan' })).records).toEqual([HEADERS]);
    const theirs = await csv('bo@annan.se');
    expect(theirs.records.slice(1).map((r) => r[0])).toEqual(['\t' + ICCID_OTHER]);
  });

  it('refuses an anonymous caller with 401 and a bad format or search with 400, in Swedish', async () => {
    for (const format of ['csv', 'xlsx', 'pdf']) {
      const res = await get(null, { format });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Du är inte inloggad.', issues: [] });
    }
    const bad: Array<Record<string, string>> = [
      { format: 'pdf' },
      {},
      { format: 'CSV' },
      { format: 'csv', q: 'x'.repeat(201) },
    ];
    const answers = await Promise.all(bad.map((q) => get('xena@firma.se', q)));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    for (const body of bodies.slice(0, 3))
      expect(body).toEqual({
        error: expect.any(String),
        issues: [{ path: ['format'], message: 'Välj formatet csv eller xlsx.' }],
      });
    expect(bodies[3].issues).toEqual([{ path: ['q'], message: expect.stringMatching(/200/) }]);
    // A repeated name is no single format either.
    const twice = await fetch(`${server.url}/api/sim/export?format=csv&format=xlsx`, {
      headers: { cookie: await server.sessionCookie('xena@firma.se') },
    });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(bodies)).not.toMatch(/zod|trpc|at .*\.ts|node_modules/i);
  });

  it('is described in the OpenAPI document, which stays valid', async () => {
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    const { validate } = await import('@readme/openapi-parser');
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify((result as { errors?: unknown }).errors ?? '')).toBe(true);
    const get = doc.paths['/sim/export'].get;
    expect(get.operationId).toBe('sim-export');
    expect(get.parameters).toContainEqual(
      expect.objectContaining({
        name: 'format',
        in: 'query',
        required: true,
        schema: { type: 'string', enum: ['csv', 'xlsx'] },
      }),
    );
    expect(Object.keys(get.responses['200'].content)).toEqual([
      'text/csv; charset=utf-8',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
  });

  it(`streams ${BIG} SIMs read in batches, every one once and in the list's order, memory bounded`, async () => {
    const before = server.logs.length;
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const start = process.memoryUsage().rss;
    try {
      const { res, records } = await csv('stina@stor.se');
      expect(res.headers.get('content-length')).toBeNull(); // streamed, not buffered
      const iccids = records.slice(1).map((r) => r[0]!.trim());
      expect(iccids).toHaveLength(BIG);
      expect(new Set(iccids).size).toBe(BIG);
      // Newest first, ties (ten per minute) by id descending: g = 1..9 first, then 10..19, ...
      const g = (iccid: string) => Number(iccid.slice(4, 19));
      const expected = Array.from({ length: BIG }, (_, i) => i + 1).sort(
        (a, b) => Math.floor(a / 10) - Math.floor(b / 10) || b - a,
      );
      expect(iccids.map(g)).toEqual(expected);

      const { sheet } = await xlsx('stina@stor.se', { q: 'Box 7' });
      // The marks are "Box 0" to "Box 49": "Box 7" is every 50th SIM.
      expect(sheet.rowCount).toBe(1 + BIG / 50);
    } finally {
      clearInterval(sampler);
    }
    const done = server.logs.slice(before).filter((l) => l.msg === 'sim list exported');
    expect(done.map((l) => [l.format, l.rows, l.batches])).toEqual([
      ['csv', BIG, BIG / 500],
      ['xlsx', BIG / 50, 1],
    ]);
    // A sanity bound, not a benchmark: the whole file held at once would still fit, but a copy per row would not.
    expect(peak - start).toBeLessThan(200 * 1024 * 1024);
  });

  it('stops reading when the reader goes away, without an error, in process and over HTTP', async () => {
    const before = server.logs.length;
    const cookie = await server.sessionCookie('stina@stor.se');
    const ctx = await createContext({
      services: server.services,
      headers: new Headers({ cookie }),
      requestId: 't',
      ip: '',
    });
    // In process, the reader decides the pace: after one chunk the writer waits for it, then sees it gone.
    for (const format of ['csv', 'xlsx']) {
      const file = await createCaller(ctx).export.simList({ format });
      await new Promise<void>((resolve) => file.stream.once('data', () => resolve()));
      file.stream.destroy();
    }
    const cancelled = () => server.logs.slice(before).filter((l) => l.msg === 'sim list download cancelled');
    await expect.poll(() => cancelled().length, { timeout: 15_000 }).toBe(2);
    // Stopped before the last of the ten batches was read.
    for (const l of cancelled()) expect(l.batches).toBeLessThan(BIG / 500);

    // Over HTTP the socket's buffers may take a whole small file before the client goes: ended either way,
    // never as a failure.
    for (const format of ['csv', 'xlsx']) {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(url({ format }), { headers: { cookie } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.on('error', () => {});
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      });
    }
    const ended = () => server.logs.slice(before).filter((l) => /^sim list (exported|download cancelled)$/.test(l.msg));
    await expect.poll(() => ended().length, { timeout: 15_000 }).toBe(4);
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
    const { records } = await csv('stina@stor.se');
    expect(records).toHaveLength(BIG + 1);
  });
});
