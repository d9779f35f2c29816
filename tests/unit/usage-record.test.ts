// A usage record checked as the ingest checks it: each field of the contract, what is normalised, and the
// Swedish reason of each refusal.
import { describe, expect, it } from 'vitest';
import { checkUsageRecord, normalizeCountry, normalizeNetwork } from '#domain/usage/record.ts';
import { tUsage } from '#domain/texts/usage.ts';

const now = new Date('2026-11-28T14:00:00Z');
const limits = { now, oldest: new Date('2026-08-30T00:00:00Z'), retentionDays: 90 };
const good = {
  recordId: 'r-1',
  iccid: '89460123456789012347',
  start: '2026-11-28T14:30:00+01:00',
  end: '2026-11-28T14:45:00+01:00',
  bytesUp: 1200,
  bytesDown: 5600,
  network: '240-01',
  country: 'se',
  rat: 'LTE-M',
  imei: '356938035643809',
};
const refused = (input: unknown) => {
  const c = checkUsageRecord(input, limits);
  return c.ok ? null : c.reason;
};

describe('checkUsageRecord', () => {
  it('takes a whole record and normalises it', () => {
    const c = checkUsageRecord(good, limits);
    expect(c).toEqual({
      ok: true,
      record: {
        recordId: 'r-1',
        iccid: '89460123456789012347',
        start: new Date('2026-11-28T13:30:00Z'),
        end: new Date('2026-11-28T13:45:00Z'),
        bytesUp: 1200,
        bytesDown: 5600,
        network: '240-01',
        country: 'SE',
        rat: 'LTE-M',
        imei: '356938035643809',
      },
    });
  });

  it('takes a CSV row: numbers as text, empty optional cells as none', () => {
    const c = checkUsageRecord(
      { ...good, bytesUp: '0', bytesDown: '123', network: '24001', country: '', rat: '', imei: '' },
      limits,
    );
    expect(c.ok && c.record).toMatchObject({
      bytesUp: 0,
      bytesDown: 123,
      network: '240-01',
      country: null,
      rat: null,
      imei: null,
    });
    const bare = checkUsageRecord(
      { recordId: 7, iccid: good.iccid, start: good.start, end: good.end, bytesUp: 1, bytesDown: 2 },
      limits,
    );
    expect(bare.ok && bare.record).toMatchObject({
      recordId: '7',
      network: null,
      country: null,
      rat: null,
      imei: null,
    });
  });

  it('refuses each broken field with its reason', () => {
    const r = tUsage.refused;
    expect(refused(null)).toBe(r.notAnObject);
    expect(refused([good])).toBe(r.notAnObject);
    expect(refused({ ...good, recordId: '' })).toBe(r.recordId(100));
    expect(refused({ ...good, recordId: 'a b' })).toBe(r.recordId(100));
    expect(refused({ ...good, recordId: 'x'.repeat(101) })).toBe(r.recordId(100));
    expect(refused({ ...good, iccid: '89460123456789012340' })).toMatch(/^iccid är ogiltigt: /);
    expect(refused({ ...good, iccid: undefined })).toMatch(/^iccid är ogiltigt: /);
    expect(refused({ ...good, start: '2026-11-28T14:30:00' })).toBe(r.time('start'));
    expect(refused({ ...good, end: 1764337500 })).toBe(r.time('end'));
    expect(refused({ ...good, end: '2026-11-28T14:29:59+01:00' })).toBe(r.endBeforeStart);
    expect(refused({ ...good, end: '2026-11-29T14:30:01+01:00', start: '2026-11-28T14:30:00+01:00' })).toBe(
      r.tooLong(24),
    );
    expect(refused({ ...good, start: '2026-08-29T23:59:59Z', end: '2026-08-30T00:10:00Z' })).toBe(r.tooOld(90));
    expect(refused({ ...good, start: '2026-11-28T15:00:01Z', end: '2026-11-28T15:10:00Z' })).toBe(r.future);
    expect(refused({ ...good, bytesUp: -1 })).toBe(r.bytes('bytesUp'));
    expect(refused({ ...good, bytesUp: 1.5 })).toBe(r.bytes('bytesUp'));
    expect(refused({ ...good, bytesDown: '12 kB' })).toBe(r.bytes('bytesDown'));
    expect(refused({ ...good, bytesDown: 2 ** 53 })).toBe(r.bytes('bytesDown'));
    expect(refused({ ...good, network: '24' })).toBe(r.network);
    expect(refused({ ...good, network: 24001 })).toBe(r.network);
    expect(refused({ ...good, country: 'XX' })).toBe(r.country);
    expect(refused({ ...good, country: 'SWE' })).toBe(r.country);
    expect(refused({ ...good, rat: '4G LTE' })).toBe(r.rat(16));
    expect(refused({ ...good, imei: '35693803564380' + 'x' })).toBe(r.imei);
  });

  it('allows a start a little ahead of the clock, and the oldest kept', () => {
    expect(refused({ ...good, start: '2026-11-28T15:00:00Z', end: '2026-11-28T15:10:00Z' })).toBeNull();
    expect(refused({ ...good, start: '2026-08-30T00:00:00Z', end: '2026-08-30T00:15:00Z' })).toBeNull();
  });
});

describe('network and country', () => {
  it('reads MCC-MNC with or without its dash', () => {
    expect(normalizeNetwork('240-01')).toBe('240-01');
    expect(normalizeNetwork('310260')).toBe('310-260');
    expect(normalizeNetwork('2400')).toBeNull();
  });
  it('knows assigned codes only', () => {
    expect(normalizeCountry('no')).toBe('NO');
    expect(normalizeCountry('ZZ')).toBeNull();
    expect(normalizeCountry('QQ')).toBeNull();
  });
});
