// The ICCID rules checked against numbers from outside the code: Luhn vectors published elsewhere, and ICCIDs in
// the form of real issuers' cards whose check digits were worked out by hand below (never by the function under
// test, which would only agree with itself).
import { describe, expect, it } from 'vitest';
import { iccidProblem, isAcceptableScan, luhnCheckDigit, normalizeIccid } from '#domain/sims/iccid.ts';

/**
 * ICCIDs (ITU-T E.118) as real issuers number their cards: 89 (telecommunications), the country's E.164 code, the
 * operator's issuer number (its mobile network code), the account digits (made up here), then the Luhn check
 * digit. The working, by hand: from the right of the 19 digits every second digit is doubled, starting with the
 * last; a doubled digit over 9 has 9 taken off; the check digit brings the sum to a multiple of ten.
 */
const ICCIDS = {
  // Telia Sverige (8946 01): 8946 0123 4567 8901 234 + 7.
  //   doubled 8→7 4→8 0→0 2→4 4→8 6→3 8→7 0→0 2→4 4→8 = 49; the others 9 6 1 3 5 7 9 1 3 = 44;
  //   49 + 44 = 93, so 7 makes 100.
  telia: '89460123456789012347',
  // Tele2 Sverige (8946 07): 8946 0780 0001 2345 678 + 8.
  //   doubled 8→7 4→8 0→0 8→7 0→0 0→0 2→4 4→8 6→3 8→7 = 44; the others 9 6 7 0 0 1 3 5 7 = 38;
  //   44 + 38 = 82, so 8 makes 90.
  tele2: '89460780000123456788',
  // T-Mobile US (89 01 260: the United States as 01, issuer 260): 8901 2600 1234 5678 901 + 8.
  //   doubled 8→7 0→0 2→4 0→0 1→2 3→6 5→1 7→5 9→9 1→2 = 36; the others 9 1 6 0 2 4 6 8 0 = 36;
  //   36 + 36 = 72, so 8 makes 80.
  tmobile: '89012600123456789018',
};

describe('ICCID', () => {
  it('computes the Luhn check digit of published vectors', () => {
    // Wikipedia's Luhn algorithm article: 7992739871 has the check digit 3.
    expect(luhnCheckDigit('7992739871')).toBe(3);
    // The card networks' test numbers that payment providers publish (Luhn-valid by design): Visa
    // 4111 1111 1111 1111, Mastercard 5555 5555 5555 4444, American Express 3782 822463 10005.
    expect(luhnCheckDigit('411111111111111')).toBe(1);
    expect(luhnCheckDigit('555555555555444')).toBe(4);
    expect(luhnCheckDigit('37828224631000')).toBe(5);
  });

  it('computes the check digit of the issuers’ ICCIDs worked out by hand', () => {
    for (const iccid of Object.values(ICCIDS))
      expect(luhnCheckDigit(iccid.slice(0, 19)), iccid).toBe(Number(iccid[19]));
  });

  it('accepts 20 digits with a valid check digit, spaces removed', () => {
    for (const iccid of Object.values(ICCIDS)) {
      expect(iccidProblem(iccid), iccid).toBeNull();
      // As printed on the card and typed: groups of four.
      expect(iccidProblem(iccid.replace(/(\d{4})(?=\d)/g, '$1 ')), iccid).toBeNull();
    }
    expect(iccidProblem(' 8946 0123 4567 8901 2347 ')).toBeNull();
    expect(normalizeIccid(' 8946 0123 ')).toBe('89460123');
  });

  it('refuses every wrong check digit, a mistyped digit and swapped neighbours', () => {
    for (const iccid of Object.values(ICCIDS)) {
      const body = iccid.slice(0, 19);
      for (let d = 0; d <= 9; d++)
        if (String(d) !== iccid[19]) expect(iccidProblem(body + String(d)), body + String(d)).toBe('checkDigit');
    }
    // One digit of the account mistyped (Telia's 12th digit, 8 for 7, not doubled): the sum moves by 1, the check
    // digit no longer fits.
    expect(iccidProblem('89460123456889012347')).toBe('checkDigit');
    // Two neighbours swapped (Tele2's 78 as 87): 7 + (8 doubled: 7) = 14 becomes 8 + (7 doubled: 5) = 13.
    expect(iccidProblem('89460870000123456788')).toBe('checkDigit');
    // Real cards' check digits belong to their own number: T-Mobile's body with Telia's check digit 7.
    expect(iccidProblem('89012600123456789017')).toBe('checkDigit');
  });

  it('names each problem', () => {
    expect(iccidProblem('')).toBe('empty');
    expect(iccidProblem('   ')).toBe('empty');
    expect(iccidProblem('8946abc')).toBe('notDigits');
    expect(iccidProblem(ICCIDS.telia.slice(0, 19))).toBe('length');
    expect(iccidProblem(ICCIDS.telia + '1')).toBe('length');
  });

  it('accepts a scan only when exactly 20 digits (and a valid check digit)', () => {
    expect(isAcceptableScan(ICCIDS.tele2)).toBe(true);
    expect(isAcceptableScan(ICCIDS.tele2.slice(0, 19))).toBe(false);
    expect(isAcceptableScan(` ${ICCIDS.tele2}`)).toBe(false);
    expect(isAcceptableScan('A' + ICCIDS.tele2.slice(1))).toBe(false);
    expect(isAcceptableScan('89460780000123456789')).toBe(false);
  });
});
