// The export's one-click periods (issue 41): each a whole calendar span, "this" ones up to the current month (the
// export refuses a later end), across a year's turn; and every one passes the export's own check.
import { describe, expect, it } from 'vitest';
import { EXPORT_PRESETS, presetPeriod, type YearMonth } from '#domain/export/periods.ts';
import { checkExportQuery } from '#domain/export/query.ts';

const ym = (year: number, month: number): YearMonth => ({ year, month });

describe('presetPeriod', () => {
  it('in November 2026', () => {
    const now = ym(2026, 11);
    expect(presetPeriod('lastMonth', now)).toEqual({ start: ym(2026, 10), end: ym(2026, 10) });
    expect(presetPeriod('thisMonth', now)).toEqual({ start: ym(2026, 11), end: ym(2026, 11) });
    expect(presetPeriod('lastQuarter', now)).toEqual({ start: ym(2026, 7), end: ym(2026, 9) });
    expect(presetPeriod('thisQuarter', now)).toEqual({ start: ym(2026, 10), end: ym(2026, 11) });
    expect(presetPeriod('lastYear', now)).toEqual({ start: ym(2025, 1), end: ym(2025, 12) });
    expect(presetPeriod('thisYear', now)).toEqual({ start: ym(2026, 1), end: ym(2026, 11) });
  });

  it('in January: last month and last quarter are last year’s', () => {
    const now = ym(2027, 1);
    expect(presetPeriod('lastMonth', now)).toEqual({ start: ym(2026, 12), end: ym(2026, 12) });
    expect(presetPeriod('lastQuarter', now)).toEqual({ start: ym(2026, 10), end: ym(2026, 12) });
    expect(presetPeriod('thisQuarter', now)).toEqual({ start: ym(2027, 1), end: ym(2027, 1) });
    expect(presetPeriod('thisYear', now)).toEqual({ start: ym(2027, 1), end: ym(2027, 1) });
  });

  it('every preset of every month of two years is a period the export takes', () => {
    for (let i = 0; i < 24; i++) {
      const now = ym(2026 + Math.floor(i / 12), (i % 12) + 1);
      for (const preset of EXPORT_PRESETS) {
        const p = presetPeriod(preset, now);
        const query = {
          start_year: String(p.start.year),
          start_month: String(p.start.month),
          end_year: String(p.end.year),
          end_month: String(p.end.month),
        };
        expect(checkExportQuery(query, now).ok, `${preset} in ${now.year}-${now.month}`).toBe(true);
      }
    }
  });
});
