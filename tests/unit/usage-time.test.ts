// The Swedish day and month of a time, at the edges worked out by hand: midnight in winter (UTC+1) and summer
// (UTC+2), the nights the clocks change (2026-03-29 02:00 -> 03:00, 2026-10-25 03:00 -> 02:00), month and year ends.
import { describe, expect, it } from 'vitest';
import { monthStart, parseOffsetTime, swedishDay, swedishMonth } from '#domain/usage/time.ts';

const at = (iso: string) => new Date(iso);

describe('swedishDay', () => {
  it.each([
    ['2026-01-15T22:59:59Z', '2026-01-15'], // 23:59:59 CET
    ['2026-01-15T23:00:00Z', '2026-01-16'], // 00:00 CET
    ['2026-07-01T21:59:59Z', '2026-07-01'], // 23:59:59 CEST
    ['2026-07-01T22:00:00Z', '2026-07-02'], // 00:00 CEST
    ['2026-03-28T22:59:59Z', '2026-03-28'], // the night before spring's change is still winter time
    ['2026-03-28T23:00:00Z', '2026-03-29'],
    ['2026-03-29T00:59:59Z', '2026-03-29'], // 01:59:59 CET, the last second before 03:00 CEST
    ['2026-03-29T01:00:00Z', '2026-03-29'], // 03:00 CEST
    ['2026-03-29T21:59:59Z', '2026-03-29'], // the 23-hour day ends at 22:00 UTC
    ['2026-03-29T22:00:00Z', '2026-03-30'],
    ['2026-10-24T21:59:59Z', '2026-10-24'],
    ['2026-10-24T22:00:00Z', '2026-10-25'], // 00:00 CEST
    ['2026-10-25T00:30:00Z', '2026-10-25'], // 02:30 CEST, the first time
    ['2026-10-25T01:30:00Z', '2026-10-25'], // 02:30 CET, the second time
    ['2026-10-25T22:59:59Z', '2026-10-25'], // the 25-hour day ends at 23:00 UTC
    ['2026-10-25T23:00:00Z', '2026-10-26'],
    ['2026-11-30T22:59:59Z', '2026-11-30'],
    ['2026-11-30T23:00:00Z', '2026-12-01'],
    ['2026-12-31T23:00:00Z', '2027-01-01'],
    ['2028-02-28T23:00:00Z', '2028-02-29'], // a leap day
  ])('%s is %s in Sweden', (iso, day) => {
    expect(swedishDay(at(iso))).toBe(day);
  });

  it("is Intl's day for every time, whatever was asked before in the same hour (remembered per UTC hour)", () => {
    const reference = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Stockholm', dateStyle: 'short' });
    // Both changes of the clocks in 2026 and a new year, every 7 minutes and 13 seconds (asked in a mixed order:
    // each hour's first answer is the one remembered), and times before 1970 (Intl asked every time).
    const spans = [
      ['2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z'],
      ['2026-10-23T00:00:00Z', '2026-10-27T00:00:00Z'],
      ['2026-12-30T00:00:00Z', '2027-01-02T00:00:00Z'],
    ];
    const times: Date[] = [new Date('1969-12-31T23:30:00Z'), new Date('1899-12-31T23:30:00Z')];
    for (const [from, to] of spans)
      for (let t = Date.parse(from ?? ''); t < Date.parse(to ?? ''); t += 433_000) times.push(new Date(t));
    const mixed = [...times.filter((_, i) => i % 2), ...times.filter((_, i) => i % 2 === 0)];
    for (const time of mixed) expect(swedishDay(time), time.toISOString()).toBe(reference.format(time));
    expect(() => swedishDay(new Date(NaN))).toThrow(RangeError);
  });

  it('gives the month, and the first day of a month', () => {
    expect(swedishMonth(at('2026-12-31T23:00:00Z'))).toBe('2027-01');
    expect(swedishMonth(at('2026-12-31T22:59:59Z'))).toBe('2026-12');
    expect(swedishMonth(at('2026-05-31T22:00:00Z'))).toBe('2026-06'); // 00:00 CEST on 1 June
    expect(monthStart('2026-06-17')).toBe('2026-06-01');
    expect(monthStart('2026-06')).toBe('2026-06-01');
  });
});

describe('parseOffsetTime', () => {
  it.each([
    ['2026-11-28T14:45:00+01:00', '2026-11-28T13:45:00.000Z'],
    ['2026-11-28T14:45:00+0100', '2026-11-28T13:45:00.000Z'],
    ['2026-11-28T14:45+01:00', '2026-11-28T13:45:00.000Z'],
    ['2026-11-28T13:45:00Z', '2026-11-28T13:45:00.000Z'],
    ['2026-11-28T13:45:00.123456Z', '2026-11-28T13:45:00.123Z'],
    ['2026-11-28 08:45:00-05:00', '2026-11-28T13:45:00.000Z'],
    ['2026-03-29T03:00:00+02:00', '2026-03-29T01:00:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseOffsetTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-11-28T14:45:00', // no offset: the zone would be a guess
    '2026-11-28',
    '2026-02-29T00:00:00Z', // 2026 is no leap year
    '2026-04-31T00:00:00Z',
    '2026-11-28T24:00:00Z',
    '2026-11-28T12:60:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-28T12:00:00+19:00',
    '1764337500',
    'i går',
    '',
  ])('refuses %j', (text) => {
    expect(parseOffsetTime(text)).toBeNull();
  });
});
