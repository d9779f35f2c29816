import { describe, expect, it } from 'vitest';
import {
  canCallAndSms, canRoaming, dataAmounts, formatDataAmount, normalizeSelection, resolvePlan, selectionProblem,
} from '../../server/plans/selector.js';

const plan = (code: string, dataLimit: number, call: boolean, sms: boolean, roaming: boolean, isLegacy = false) => ({ code, dataLimit, call, sms, roaming, isLegacy });
// A catalog that exercises every rule: amounts with and without tal & SMS, roaming only with or only
// without tal & SMS, call without sms, duplicates, a legacy plan.
const catalog = [
  plan('B-500', 500, false, false, false),
  plan('A-500', 500, false, false, false), // same as B-500: lowest code wins
  plan('C-1000', 1000, true, true, false),
  plan('D-1000', 1000, false, false, false),
  plan('E-1500', 1500, false, false, true), // roaming only without tal & SMS
  plan('F-5000', 5000, true, true, true), // roaming only with tal & SMS
  plan('G-5000', 5000, true, false, false), // call without sms: does not count for tal & SMS
  plan('H-20000', 20000, false, false, true),
  plan('I-20000', 20000, true, true, false),
  plan('L-2000', 2000, true, true, true, true), // legacy
];

describe('data amounts', () => {
  it('are unique and ascending', () => {
    expect(dataAmounts(catalog)).toEqual([500, 1000, 1500, 2000, 5000, 20000]);
  });
  it('show MB below 1000 and GB from 1000 with a decimal comma', () => {
    expect(formatDataAmount(500)).toBe('500 MB');
    expect(formatDataAmount(999)).toBe('999 MB');
    expect(formatDataAmount(1000)).toBe('1 GB');
    expect(formatDataAmount(1500)).toBe('1,5 GB');
    expect(formatDataAmount(50000)).toBe('50 GB');
    expect(formatDataAmount(1250)).toBe('1,25 GB');
  });
});

describe('plan option rules', () => {
  it('rule 1: nothing can be enabled before an amount is chosen', () => {
    expect(canCallAndSms(catalog, null)).toBe(false);
    expect(canRoaming(catalog, null, false)).toBe(false);
  });
  it('rule 2: tal & SMS needs a plan with both call and sms at that amount', () => {
    expect(canCallAndSms(catalog, 500)).toBe(false);
    expect(canCallAndSms(catalog, 1000)).toBe(true);
    expect(canCallAndSms(catalog, 1500)).toBe(false);
    expect(canCallAndSms(catalog, 5000)).toBe(true);
    expect(canCallAndSms(catalog, 777)).toBe(false);
  });
  it('rule 3: roaming needs a plan with roaming; with tal & SMS only plans with all three count', () => {
    expect(canRoaming(catalog, 500, false)).toBe(false);
    expect(canRoaming(catalog, 1500, false)).toBe(true);
    expect(canRoaming(catalog, 1500, true)).toBe(false);
    expect(canRoaming(catalog, 5000, true)).toBe(true);
    expect(canRoaming(catalog, 5000, false)).toBe(true);
    expect(canRoaming(catalog, 20000, true)).toBe(false);
    expect(canRoaming(catalog, 20000, false)).toBe(true);
  });
  it('clears options that are no longer possible after a change', () => {
    expect(normalizeSelection(catalog, { dataLimit: 500, callAndSms: true, roaming: true })).toEqual({ dataLimit: 500, callAndSms: false, roaming: false });
    expect(normalizeSelection(catalog, { dataLimit: 20000, callAndSms: true, roaming: true })).toEqual({ dataLimit: 20000, callAndSms: true, roaming: false });
    expect(normalizeSelection(catalog, { dataLimit: 5000, callAndSms: true, roaming: true })).toEqual({ dataLimit: 5000, callAndSms: true, roaming: true });
    expect(normalizeSelection(catalog, { dataLimit: 12345, callAndSms: true, roaming: false })).toEqual({ dataLimit: null, callAndSms: false, roaming: false });
  });
});

describe('resolving the plan', () => {
  it('matches call and sms to callAndSms and roaming exactly, lowest code first, never legacy', () => {
    expect(resolvePlan(catalog, { dataLimit: 500, callAndSms: false, roaming: false })?.code).toBe('A-500');
    expect(resolvePlan(catalog, { dataLimit: 1000, callAndSms: true, roaming: false })?.code).toBe('C-1000');
    expect(resolvePlan(catalog, { dataLimit: 5000, callAndSms: true, roaming: true })?.code).toBe('F-5000');
    expect(resolvePlan(catalog, { dataLimit: 5000, callAndSms: false, roaming: false })).toBeNull(); // G has call but no sms
    expect(resolvePlan(catalog, { dataLimit: 2000, callAndSms: true, roaming: true })).toBeNull(); // legacy only
  });
  it('explains why a selection cannot be saved', () => {
    expect(selectionProblem(catalog, { dataLimit: null, callAndSms: false, roaming: false })?.field).toBe('dataLimit');
    expect(selectionProblem(catalog, { dataLimit: 42, callAndSms: false, roaming: false })?.field).toBe('dataLimit');
    expect(selectionProblem(catalog, { dataLimit: 500, callAndSms: true, roaming: false })?.field).toBe('callAndSms');
    expect(selectionProblem(catalog, { dataLimit: 1500, callAndSms: false, roaming: false })?.message).toContain('inget abonnemang');
    expect(selectionProblem(catalog, { dataLimit: 1000, callAndSms: false, roaming: true })?.field).toBe('roaming');
    expect(selectionProblem(catalog, { dataLimit: 1500, callAndSms: false, roaming: true })).toBeNull();
  });
});
