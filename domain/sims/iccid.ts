// ICCID rules (ITU-T E.118): 20 digits, the last a Luhn check digit over the first 19.
// Pure (it imports only the texts): the browser (form hints, scanner) and the server use this same module.
import { t } from '#domain/texts/common.ts';

export const ICCID_LENGTH = 20;
/**
 * The ICCID field's pattern (HTML, so whole-value): ICCID_LENGTH digits, with spaces between the groups allowed, as
 * the field's title says (t.sims.iccidTitle). The check digit is the procedure's to check, in words.
 */
export const ICCID_INPUT_PATTERN = ` *([0-9] *){${ICCID_LENGTH}}`;

/** Removes the spaces people type or scanners add between digit groups. */
export function normalizeIccid(input: string): string {
  return input.replace(/\s+/g, '');
}

export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  // Double every second digit from the right of the payload (the check digit position is to its right).
  for (let i = payload.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = payload.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export type IccidProblem = 'empty' | 'notDigits' | 'length' | 'checkDigit';

export function iccidProblem(input: string): IccidProblem | null {
  const v = normalizeIccid(input);
  if (v === '') return 'empty';
  if (!/^\d+$/.test(v)) return 'notDigits';
  if (v.length !== ICCID_LENGTH) return 'length';
  if (luhnCheckDigit(v.slice(0, 19)) !== Number(v[19])) return 'checkDigit';
  return null;
}

export const iccidMessages: Record<IccidProblem, string> = t.errors.fields.iccid;

/** The scanner rule of the spec: exactly 20 characters, all digits (and, as the form, a valid check digit). */
export function isAcceptableScan(text: string): boolean {
  return /^\d{20}$/.test(text) && iccidProblem(text) === null;
}

/** Makes a valid ICCID from 19 digits (test data, demo data). */
export function withCheckDigit(first19: string): string {
  return first19 + String(luhnCheckDigit(first19));
}
