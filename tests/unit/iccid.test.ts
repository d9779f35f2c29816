import { describe, expect, it } from 'vitest';
import { iccidProblem, isAcceptableScan, luhnCheckDigit, normalizeIccid, withCheckDigit } from '#domain/sims/iccid.ts';

describe('ICCID', () => {
  const valid = withCheckDigit('8946012345678900010');
  it('computes the Luhn check digit (known vectors)', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(luhnCheckDigit('894601234567890001')).toBeTypeOf('number');
    expect(valid).toHaveLength(20);
  });
  it('accepts 20 digits with a valid check digit, spaces removed', () => {
    expect(iccidProblem(valid)).toBeNull();
    expect(iccidProblem(valid.replace(/(\d{4})/g, '$1 '))).toBeNull();
    expect(normalizeIccid(' 8946 0123 ')).toBe('894601 23'.replace(' ', ''));
  });
  it('names each problem', () => {
    expect(iccidProblem('')).toBe('empty');
    expect(iccidProblem('   ')).toBe('empty');
    expect(iccidProblem('8946abc')).toBe('notDigits');
    expect(iccidProblem(valid.slice(0, 19))).toBe('length');
    expect(iccidProblem(valid + '1')).toBe('length');
    const wrong = valid.slice(0, 19) + String((Number(valid[19]) + 1) % 10);
    expect(iccidProblem(wrong)).toBe('checkDigit');
  });
  it('accepts a scan only when exactly 20 digits (and a valid check digit)', () => {
    expect(isAcceptableScan(valid)).toBe(true);
    expect(isAcceptableScan(valid.slice(0, 19))).toBe(false);
    expect(isAcceptableScan(` ${valid}`)).toBe(false);
    expect(isAcceptableScan('A' + valid.slice(1))).toBe(false);
  });
});
