// The month splitting and the default period of the invoice export: pure functions, every rule pinned.
import { describe, expect, it } from 'vitest';
import {
  dayFromIso,
  dayInZone,
  defaultPeriod,
  isoFromDay,
  monthRows,
  yearMonthInZone,
  type MonthRow,
  type Period,
  type SimEventInput,
} from '#domain/export/periods.ts';
import { checkExportQuery, exportFilename, exportMessages } from '#domain/export/query.ts';
import { formatDataAmount } from '#server/export/workbook.ts';
import { safeText } from '#server/files/formula.ts';

const ev = (kind: string, iso: string, planId: number): SimEventInput => ({ kind, day: dayFromIso(iso), planId });
const period = (a: string, b: string): Period => {
  const [sy, sm] = a.split('-').map(Number) as [number, number];
  const [ey, em] = b.split('-').map(Number) as [number, number];
  return { start: { year: sy, month: sm }, end: { year: ey, month: em } };
};
/** Rows as [YYYY-MM, plan, from, to, days] for readable expectations. */
const view = (rows: MonthRow[]) =>
  rows.map((r) => [
    `${r.month.year}-${String(r.month.month).padStart(2, '0')}`,
    r.planId,
    isoFromDay(r.from),
    isoFromDay(r.to),
    r.days,
  ]);

describe('monthRows: one row per month per plan period', () => {
  it('starts on the activation day inside a month', () => {
    const rows = monthRows([ev('activated', '2026-01-15', 1)], period('2026-01', '2026-02'));
    expect(view(rows)).toEqual([
      ['2026-01', 1, '2026-01-15', '2026-01-31', 17],
      ['2026-02', 1, '2026-02-01', '2026-02-28', 28],
    ]);
  });

  it('splits at a plan change: the old plan ends the day before, the new one starts that day', () => {
    const rows = monthRows(
      [ev('activated', '2025-06-01', 1), ev('planChanged', '2026-03-10', 2)],
      period('2026-03', '2026-03'),
    );
    expect(view(rows)).toEqual([
      ['2026-03', 1, '2026-03-01', '2026-03-09', 9],
      ['2026-03', 2, '2026-03-10', '2026-03-31', 22],
    ]);
  });

  it('ends on the deactivation day, and nothing after it', () => {
    const rows = monthRows(
      [ev('activated', '2025-01-01', 3), ev('deactivated', '2026-04-12', 3)],
      period('2026-03', '2026-05'),
    );
    expect(view(rows)).toEqual([
      ['2026-03', 3, '2026-03-01', '2026-03-31', 31],
      ['2026-04', 3, '2026-04-01', '2026-04-12', 12],
    ]);
  });

  it('activation, change and deactivation inside one month give two rows', () => {
    const rows = monthRows(
      [
        ev('activated', '2026-02-03', 1),
        ev('updated', '2026-02-05', 1),
        ev('planChanged', '2026-02-10', 2),
        ev('deactivated', '2026-02-20', 2),
      ],
      period('2026-01', '2026-03'),
    );
    expect(view(rows)).toEqual([
      ['2026-02', 1, '2026-02-03', '2026-02-09', 7],
      ['2026-02', 2, '2026-02-10', '2026-02-20', 11],
    ]);
  });

  it('a SIM active the whole period has one full row per month', () => {
    const rows = monthRows([ev('activated', '2020-05-05', 7)], period('2024-01', '2024-04'));
    expect(view(rows)).toEqual([
      ['2024-01', 7, '2024-01-01', '2024-01-31', 31],
      ['2024-02', 7, '2024-02-01', '2024-02-29', 29], // leap year
      ['2024-03', 7, '2024-03-01', '2024-03-31', 31],
      ['2024-04', 7, '2024-04-01', '2024-04-30', 30],
    ]);
  });

  it('crosses a year boundary, with a change on New Year’s Day', () => {
    const rows = monthRows(
      [ev('activated', '2025-11-20', 1), ev('planChanged', '2026-01-01', 2)],
      period('2025-11', '2026-02'),
    );
    expect(view(rows)).toEqual([
      ['2025-11', 1, '2025-11-20', '2025-11-30', 11],
      ['2025-12', 1, '2025-12-01', '2025-12-31', 31],
      ['2026-01', 2, '2026-01-01', '2026-01-31', 31],
      ['2026-02', 2, '2026-02-01', '2026-02-28', 28],
    ]);
  });

  it('gives no rows for a SIM outside the period', () => {
    expect(monthRows([ev('activated', '2026-05-01', 1)], period('2026-01', '2026-04'))).toEqual([]);
    expect(
      monthRows([ev('activated', '2025-01-01', 1), ev('deactivated', '2025-12-31', 1)], period('2026-01', '2026-04')),
    ).toEqual([]);
  });

  it('counts a same-day activation and deactivation as one day; a same-day change leaves only the new plan', () => {
    expect(
      view(
        monthRows([ev('activated', '2026-03-05', 1), ev('deactivated', '2026-03-05', 1)], period('2026-03', '2026-03')),
      ),
    ).toEqual([['2026-03', 1, '2026-03-05', '2026-03-05', 1]]);
    expect(
      view(
        monthRows([ev('activated', '2026-03-05', 1), ev('planChanged', '2026-03-05', 2)], period('2026-03', '2026-03')),
      ),
    ).toEqual([['2026-03', 2, '2026-03-05', '2026-03-31', 27]]);
  });

  it('keeps A -> B -> A in one month as three periods and ignores events after deactivation', () => {
    const rows = monthRows(
      [
        ev('activated', '2026-03-01', 1),
        ev('planChanged', '2026-03-11', 2),
        ev('planChanged', '2026-03-21', 1),
        ev('deactivated', '2026-03-25', 1),
        ev('planChanged', '2026-03-28', 2),
      ],
      period('2026-03', '2026-03'),
    );
    expect(view(rows)).toEqual([
      ['2026-03', 1, '2026-03-01', '2026-03-10', 10],
      ['2026-03', 2, '2026-03-11', '2026-03-20', 10],
      ['2026-03', 1, '2026-03-21', '2026-03-25', 5],
    ]);
  });

  it('sorts events by day and cuts the current month at the last day given (today)', () => {
    const rows = monthRows(
      [ev('planChanged', '2026-03-15', 2), ev('activated', '2026-03-01', 1)],
      period('2026-03', '2026-03'),
      dayFromIso('2026-03-20'),
    );
    expect(view(rows)).toEqual([
      ['2026-03', 1, '2026-03-01', '2026-03-14', 14],
      ['2026-03', 2, '2026-03-15', '2026-03-20', 6],
    ]);
  });
});

describe('calendar days in Europe/Stockholm', () => {
  it('puts an instant on the Swedish calendar day (winter +1 h, summer +2 h)', () => {
    expect(isoFromDay(dayInZone(new Date('2026-01-31T23:30:00Z')))).toBe('2026-02-01');
    expect(isoFromDay(dayInZone(new Date('2026-06-30T21:59:00Z')))).toBe('2026-06-30');
    expect(isoFromDay(dayInZone(new Date('2026-06-30T22:00:00Z')))).toBe('2026-07-01');
    expect(yearMonthInZone(new Date('2025-12-31T23:00:00Z'))).toEqual({ year: 2026, month: 1 });
  });
});

describe('defaultPeriod: the previous full invoicing period', () => {
  const cases: Array<[Parameters<typeof defaultPeriod>[0], string, string, string]> = [
    ['monthly', '2026-03', '2026-02', '2026-02'],
    ['monthly', '2026-01', '2025-12', '2025-12'],
    ['quarterly', '2026-05', '2026-01', '2026-03'],
    ['quarterly', '2026-04', '2026-01', '2026-03'],
    ['quarterly', '2026-03', '2025-10', '2025-12'],
    ['quarterly', '2026-12', '2026-07', '2026-09'],
    ['biannually', '2026-06', '2025-07', '2025-12'],
    ['biannually', '2026-07', '2026-01', '2026-06'],
    ['biannually', '2026-12', '2026-01', '2026-06'],
    ['annually', '2026-01', '2025-01', '2025-12'],
    ['annually', '2026-11', '2025-01', '2025-12'],
  ];
  for (const [interval, now, start, end] of cases) {
    it(`${interval} in ${now} -> ${start} .. ${end}`, () => {
      const [y, m] = now.split('-').map(Number) as [number, number];
      expect(defaultPeriod(interval, { year: y, month: m })).toEqual(period(start, end));
    });
  }
});

describe('checkExportQuery', () => {
  const now = { year: 2026, month: 11 };
  const q = (start_year: unknown, start_month: unknown, end_year: unknown, end_month: unknown) =>
    checkExportQuery({ start_year, start_month, end_year, end_month }, now);
  const firstMessage = (r: ReturnType<typeof q>) => (r.ok ? null : r.issues[0]!.message);

  it('accepts a good period and keeps the numbers as typed for the file name', () => {
    const r = q('2026', '1', '2026', '03');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.start).toEqual({ year: 2026, month: 1 });
    expect(r.value.end).toEqual({ year: 2026, month: 3 });
    expect(exportFilename(r.value)).toBe('Sim_export20261-202603.xlsx');
    expect(q(2023, 12, 2026, 11).ok).toBe(true); // exactly 36 months, ending this month
  });

  it('refuses each bad query with a Swedish message', () => {
    expect(firstMessage(q('', '1', '2026', '1'))).toBe(exportMessages.missing('start_year'));
    expect(firstMessage(q('2026', '1.5', '2026', '2'))).toBe(exportMessages.notInteger('start_month'));
    expect(firstMessage(q('1999', '1', '2026', '1'))).toBe(exportMessages.year('start_year'));
    expect(firstMessage(q('2026', '1', '2101', '1'))).toBe(exportMessages.year('end_year'));
    expect(firstMessage(q('2026', '0', '2026', '1'))).toBe(exportMessages.month('start_month'));
    expect(firstMessage(q('2026', '1', '2026', '13'))).toBe(exportMessages.month('end_month'));
    expect(firstMessage(q('2026', '5', '2026', '4'))).toBe(exportMessages.order);
    expect(firstMessage(q('2023', '11', '2026', '11'))).toBe(exportMessages.tooLong);
    expect(firstMessage(q('2026', '11', '2026', '12'))).toBe(exportMessages.future);
  });
});

describe('cell texts', () => {
  it('shows data amounts like the UI', () => {
    expect(formatDataAmount(500)).toBe('500 MB');
    expect(formatDataAmount(1000)).toBe('1 GB');
    expect(formatDataAmount(1500)).toBe('1,5 GB');
    expect(formatDataAmount(20000)).toBe('20 GB');
  });

  it('writes formula-like texts as rich text, others as plain strings', () => {
    for (const v of ['=1+1', '+46701234567', '-5', '@SUM(A1)', '\tx', '\rx'])
      expect(safeText(v)).toEqual({ richText: [{ text: v }] });
    expect(safeText('Lager Göteborg')).toBe('Lager Göteborg');
    expect(safeText('a=b')).toBe('a=b');
  });
});
