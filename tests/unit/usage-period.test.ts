import { describe, expect, it } from 'vitest';
import { daysIn, nextDay, parseDay, parsePeriod, swedishMidnight } from '#domain/usage/period.ts';
import { swedishDay } from '#domain/usage/time.ts';

describe('swedishMidnight', () => {
  it.each([
    ['2026-01-15', '2026-01-14T23:00:00.000Z'], // winter, UTC+1
    ['2026-07-01', '2026-06-30T22:00:00.000Z'], // summer, UTC+2
    ['2026-03-29', '2026-03-28T23:00:00.000Z'], // the day summer time starts: midnight is still winter
    ['2026-03-30', '2026-03-29T22:00:00.000Z'],
    ['2026-10-25', '2026-10-24T22:00:00.000Z'], // the day summer time ends: midnight is still summer
    ['2026-10-26', '2026-10-25T23:00:00.000Z'],
  ])('%s begins at %s', (day, instant) => {
    expect(swedishMidnight(day).toISOString()).toBe(instant);
  });
  it('is the first instant of its Swedish day, for every day of two years', () => {
    for (let day = '2025-01-01'; day < '2027-01-01'; day = nextDay(day)) {
      const midnight = swedishMidnight(day);
      expect(swedishDay(midnight)).toBe(day);
      expect(swedishDay(new Date(midnight.getTime() - 1))).not.toBe(day);
    }
  });
});

describe('parseDay', () => {
  it('takes real days only', () => {
    expect(parseDay('2026-02-28')).toBe('2026-02-28');
    expect(parseDay('2026-02-29')).toBeNull();
    expect(parseDay('2026-2-1')).toBeNull();
    expect(parseDay('2026-02-01T00:00:00Z')).toBeNull();
  });
});

describe('parsePeriod', () => {
  it('days include both ends, in Swedish time', () => {
    const r = parsePeriod('2026-11-01', '2026-11-30', 400);
    if (!r.ok) throw new Error(r.message);
    expect(r.period.from.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(r.period.to.toISOString()).toBe('2026-11-30T23:00:00.000Z');
    expect([r.period.firstDay, r.period.lastDay, daysIn(r.period)]).toEqual(['2026-11-01', '2026-11-30', 30]);
  });
  it('times are instants, to excluded; their totals are their whole Swedish days', () => {
    const r = parsePeriod('2026-11-27T23:30:00Z', '2026-11-28T12:00:00+01:00', 400);
    if (!r.ok) throw new Error(r.message);
    expect(r.period.from.toISOString()).toBe('2026-11-27T23:30:00.000Z');
    expect(r.period.to.toISOString()).toBe('2026-11-28T11:00:00.000Z');
    // 23:30 UTC on the 27th is 00:30 on the 28th in Stockholm
    expect([r.period.firstDay, r.period.lastDay]).toEqual(['2026-11-28', '2026-11-28']);
  });
  it('a time ending at a Swedish midnight does not take the next day', () => {
    const r = parsePeriod('2026-11-01', '2026-11-27T23:00:00Z', 400);
    if (!r.ok) throw new Error(r.message);
    expect(r.period.lastDay).toBe('2026-11-27');
  });
  it('names the field and says why, in Swedish', () => {
    expect(parsePeriod('igår', '2026-11-28', 400)).toMatchObject({ ok: false, field: 'from' });
    expect(parsePeriod('2026-11-28', '2026-11-31', 400)).toMatchObject({ ok: false, field: 'to' });
    expect(parsePeriod('2026-11-28T10:00:00', '2026-11-29', 400)).toMatchObject({ ok: false, field: 'from' });
    expect(parsePeriod('2026-11-28', '2026-11-27', 400)).toEqual({
      ok: false,
      field: 'to',
      message: 'to ligger inte efter from.',
    });
    expect(parsePeriod('2026-01-01', '2026-12-31', 90)).toEqual({
      ok: false,
      field: 'to',
      message: 'Perioden är längre än 90 dagar.',
    });
  });
});
