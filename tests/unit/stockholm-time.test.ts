// The files' Stockholm wall clock (server/files/time.ts) against the hand-worked edges of winter and summer time and
// against Intl itself for instants scattered over fifty years, the nights the clocks change and before 1970.
import { describe, expect, it } from 'vitest';
import { EXPORT_MINUTE, stockholmText, stockholmWallClock } from '#server/files/time.ts';

/** Intl's own answer, "2026-03-29 03:00". */
const intl = (ms: number) => EXPORT_MINUTE.format(new Date(ms)).replace(/\u2009|\u00a0/g, ' ');

describe('stockholmText', () => {
  it.each([
    ['2026-01-15T22:59:59.999Z', '2026-01-15 23:59'], // winter time, seconds dropped
    ['2026-01-15T23:00:00Z', '2026-01-16 00:00'],
    ['2026-07-01T21:59:00Z', '2026-07-01 23:59'], // summer time
    ['2026-03-29T00:59:59Z', '2026-03-29 01:59'], // the last minute before the clocks go forward
    ['2026-03-29T01:00:00Z', '2026-03-29 03:00'], // 02:00 CET is 03:00 CEST
    ['2026-10-25T00:30:00Z', '2026-10-25 02:30'], // the first 02:30 (CEST)
    ['2026-10-25T01:30:00Z', '2026-10-25 02:30'], // and the second (CET)
    ['2026-10-25T02:00:00Z', '2026-10-25 03:00'],
    ['1969-12-31T23:30:00Z', '1970-01-01 00:30'], // before the hours are cached: Intl itself
  ])('%s is %s in Stockholm', (iso, text) => {
    expect(stockholmText(iso)).toBe(text);
  });

  it('asks Intl itself before 1970 (the offset was not always whole hours)', () => {
    for (const iso of ['1899-06-01T12:00:00Z', '1949-05-01T12:00:00Z', '1969-12-31T23:59:59Z'])
      expect(stockholmText(iso), iso).toBe(intl(Date.parse(iso)));
  });

  it('equals Intl for instants scattered over fifty years, asked twice (cached and not)', () => {
    let seed = 20261130;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const from = Date.UTC(1990, 0, 1);
    const span = Date.UTC(2040, 0, 1) - from;
    for (let i = 0; i < 20_000; i++) {
      const ms = from + Math.floor((next() / 2 ** 31) * span) + (next() % 60_000);
      const iso = new Date(ms).toISOString();
      expect(stockholmText(iso), iso).toBe(intl(ms));
      expect(stockholmText(iso), iso).toBe(intl(ms));
      // As PostgreSQL's text and an offset time write it too.
      const noMs = iso.replace(/\.\d{3}Z$/, 'Z');
      expect(stockholmText(noMs), noMs).toBe(intl(Date.parse(noMs)));
      const offset = new Date(ms + 3_600_000).toISOString().replace('Z', '+01:00');
      expect(stockholmText(offset), offset).toBe(intl(ms));
    }
  });

  it('equals Intl minute by minute through both changes of 2026 and of 2031', () => {
    for (const night of [
      '2026-03-29T00:00:00Z',
      '2026-10-25T00:00:00Z',
      '2031-03-30T00:00:00Z',
      '2031-10-26T00:00:00Z',
    ]) {
      const start = Date.parse(night);
      for (let m = 0; m < 4 * 60; m++) {
        const ms = start + m * 60_000 + 59_999;
        expect(stockholmText(new Date(ms).toISOString()), new Date(ms).toISOString()).toBe(intl(ms));
      }
    }
  });

  it('gives a spreadsheet the wall clock as UTC parts', () => {
    expect(stockholmWallClock('2026-07-01T12:34:56Z').toISOString()).toBe('2026-07-01T14:34:00.000Z');
  });
});
