import { describe, expect, it } from 'vitest';
import { formatBytes, usageAgainstPlan } from '#domain/usage/format.ts';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 kB'],
    [1_234_567, '1,2 MB'],
    [9_940_000, '9,9 MB'],
    [9_960_000, '10 MB'],
    [640_400_000, '640 MB'],
    [1_200_000_000, '1,2 GB'],
    [12_345_678_901, '12 GB'],
    [3_500_000_000_000, '3,5 TB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('usageAgainstPlan', () => {
  it('reads as the issue writes it: 1,2 GB of a 5 GB plan is 24 %', () => {
    expect(usageAgainstPlan(1_200_000_000, 5000)).toEqual({ text: '1,2 GB av 5 GB', percent: 24 });
  });
  it('counts past the amount, and whole percents downwards (79.9 % is not yet 80 %)', () => {
    expect(usageAgainstPlan(6_000_000_000, 5000).percent).toBe(120);
    expect(usageAgainstPlan(799_000_000, 1000).percent).toBe(79);
  });
  it('has no percent without an amount', () => {
    expect(usageAgainstPlan(5_000_000, null)).toEqual({ text: '5 MB', percent: null });
    expect(usageAgainstPlan(5_000_000, 0)).toEqual({ text: '5 MB', percent: null });
  });
  it('a plan under a GB is in MB', () => {
    expect(usageAgainstPlan(100_000_000, 500).text).toBe('100 MB av 500 MB');
  });
});
