import { describe, expect, it } from 'vitest';
import {
  dataAmounts,
  formatDataAmount,
  normalizeSelection,
  optionRules,
  resolvePlan,
  selectionProblem,
  shownRules,
} from '#domain/plans/selector.ts';

const plan = (code: string, dataLimit: number, call: boolean, sms: boolean, roaming: boolean, isLegacy = false) => ({
  code,
  dataLimit,
  call,
  sms,
  roaming,
  isLegacy,
});
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
// The demo catalog (server/db/seed.ts), where a new user found unreachable plans.
const seedCatalog = [
  plan('DATA-500', 500, false, false, false),
  plan('DATA-1000', 1000, false, false, false),
  plan('DATA-1000-TS', 1000, true, true, false),
  plan('DATA-1500-R', 1500, false, false, true),
  plan('DATA-5000', 5000, false, false, false),
  plan('DATA-5000-TS', 5000, true, true, false),
  plan('DATA-5000-TSR', 5000, true, true, true),
  plan('DATA-20000-R', 20000, false, false, true),
  plan('DATA-50000', 50000, false, false, false),
  plan('DATA-50000-TSR', 50000, true, true, true),
  plan('OLD-2000', 2000, false, false, false, true),
];

describe('data amounts', () => {
  it('are unique and ascending', () => {
    expect(dataAmounts(catalog)).toEqual([500, 1000, 1500, 5000, 20000]); // 2000: legacy only
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
  const rules = (dataLimit: number | null, callAndSms = false, roaming = false) =>
    optionRules(catalog, { dataLimit, callAndSms, roaming });

  it('rule 1: nothing can be ticked before an amount is chosen', () => {
    expect(rules(null)).toEqual({ callAndSms: 'needsAmount', roaming: 'needsAmount' });
  });
  it('rule 1 is shown from the first paint; the rules of an amount only from the first change (decision 031)', () => {
    const none = { dataLimit: null, callAndSms: false, roaming: false };
    // No amount: both disabled, also on a page nobody has touched yet (and whatever the posted boxes said).
    expect(shownRules(catalog, none, false)).toEqual({ callAndSms: 'needsAmount', roaming: 'needsAmount' });
    expect(shownRules(catalog, { ...none, callAndSms: true, roaming: true }, false)).toEqual({
      callAndSms: 'needsAmount',
      roaming: 'needsAmount',
    });
    expect(shownRules(catalog, none, true)).toEqual({ callAndSms: 'needsAmount', roaming: 'needsAmount' });
    // An amount the server drew: nothing locked until the user changes something, then the rules of the amount.
    const atFifteen = { dataLimit: 1500, callAndSms: false, roaming: true };
    expect(shownRules(catalog, atFifteen, false)).toEqual({ callAndSms: 'free', roaming: 'free' });
    expect(shownRules(catalog, atFifteen, true)).toEqual(optionRules(catalog, atFifteen));
    expect(shownRules(catalog, atFifteen, true)).toEqual({ callAndSms: 'unavailable', roaming: 'included' });
    // A disabled box is not posted: the selection the rules make before an amount has both options off.
    expect(normalizeSelection(catalog, { ...none, callAndSms: true, roaming: true })).toEqual(none);
  });
  it('rule 2: tal & SMS only where a plan of the amount has both call and sms; locked on where every plan has', () => {
    expect(rules(500).callAndSms).toBe('unavailable');
    expect(rules(1000).callAndSms).toBe('free');
    expect(rules(1500).callAndSms).toBe('unavailable');
    expect(rules(5000).callAndSms).toBe('included'); // G-5000 (call without sms) can never be chosen
    expect(rules(20000).callAndSms).toBe('free');
    expect(rules(777).callAndSms).toBe('unavailable');
  });
  it('rule 3: roaming by the plans that match tal & SMS as it stands; locked on where every such plan has it', () => {
    expect(rules(500).roaming).toBe('unavailable');
    expect(rules(1000, false).roaming).toBe('unavailable');
    expect(rules(1500).roaming).toBe('included'); // 1,5 GB exists only with roaming
    expect(rules(1500, true).roaming).toBe('included'); // tal & SMS is not possible there, so it counts as off
    expect(rules(5000, false).roaming).toBe('included'); // tal & SMS is locked on at 5 GB, and F-5000 has roaming
    expect(rules(20000, false).roaming).toBe('included');
    expect(rules(20000, true).roaming).toBe('unavailable');
  });
  it('rule 3 with a choice left: roaming free where some plans of the amount and tal & SMS have it', () => {
    const more = [...catalog, plan('J-20000', 20000, false, false, false)];
    expect(optionRules(more, { dataLimit: 20000, callAndSms: false, roaming: false }).roaming).toBe('free');
    expect(optionRules(more, { dataLimit: 20000, callAndSms: true, roaming: false }).roaming).toBe('unavailable');
  });

  it('every combination the rules let a user reach has a plan (the seed catalog and this one)', () => {
    for (const plans of [catalog, seedCatalog]) {
      for (const dataLimit of dataAmounts(plans)) {
        for (const callAndSms of [false, true]) {
          for (const roaming of [false, true]) {
            const reached = normalizeSelection(plans, { dataLimit, callAndSms, roaming });
            expect(resolvePlan(plans, reached), JSON.stringify(reached)).not.toBeNull();
            expect(selectionProblem(plans, reached)).toBeNull();
          }
        }
      }
    }
  });

  it('the seed catalog: 1,5 GB and 20 GB lock roaming on, 50 GB locks roaming to tal & SMS', () => {
    const at = (dataLimit: number, callAndSms = false) =>
      optionRules(seedCatalog, { dataLimit, callAndSms, roaming: false });
    expect(at(1500)).toEqual({ callAndSms: 'unavailable', roaming: 'included' });
    expect(at(20000)).toEqual({ callAndSms: 'unavailable', roaming: 'included' });
    expect(at(50000, false)).toEqual({ callAndSms: 'free', roaming: 'unavailable' });
    expect(at(50000, true)).toEqual({ callAndSms: 'free', roaming: 'included' });
    expect(at(5000, true)).toEqual({ callAndSms: 'free', roaming: 'free' });
    expect(at(500)).toEqual({ callAndSms: 'unavailable', roaming: 'unavailable' });
  });

  it('a change of amount or option sets locked options and clears unavailable ones', () => {
    expect(normalizeSelection(catalog, { dataLimit: 500, callAndSms: true, roaming: true })).toEqual({
      dataLimit: 500,
      callAndSms: false,
      roaming: false,
    });
    expect(normalizeSelection(catalog, { dataLimit: 20000, callAndSms: true, roaming: true })).toEqual({
      dataLimit: 20000,
      callAndSms: true,
      roaming: false,
    });
    expect(normalizeSelection(catalog, { dataLimit: 1500, callAndSms: false, roaming: false })).toEqual({
      dataLimit: 1500,
      callAndSms: false,
      roaming: true,
    });
    expect(normalizeSelection(seedCatalog, { dataLimit: 50000, callAndSms: true, roaming: false })).toEqual({
      dataLimit: 50000,
      callAndSms: true,
      roaming: true,
    });
    expect(normalizeSelection(seedCatalog, { dataLimit: 50000, callAndSms: false, roaming: true })).toEqual({
      dataLimit: 50000,
      callAndSms: false,
      roaming: false,
    });
    expect(normalizeSelection(catalog, { dataLimit: 12345, callAndSms: true, roaming: false })).toEqual({
      dataLimit: null,
      callAndSms: false,
      roaming: false,
    });
  });

  it('offers only amounts that some plan can be chosen with', () => {
    expect(dataAmounts([plan('X', 3000, true, false, false), plan('Y', 4000, false, false, false)])).toEqual([4000]);
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
  it('explains why a posted selection cannot be saved, naming the field and the amount', () => {
    expect(selectionProblem(catalog, { dataLimit: null, callAndSms: false, roaming: false })).toEqual({
      field: 'dataLimit',
      message: 'Välj en datamängd.',
    });
    expect(selectionProblem(catalog, { dataLimit: 42, callAndSms: false, roaming: false })?.field).toBe('dataLimit');
    expect(selectionProblem(catalog, { dataLimit: 500, callAndSms: true, roaming: false })).toEqual({
      field: 'callAndSms',
      message: 'Tal & SMS finns inte för 500 MB. Ta bort krysset för Aktivera tal & SMS.',
    });
    expect(selectionProblem(catalog, { dataLimit: 5000, callAndSms: false, roaming: true })).toEqual({
      field: 'callAndSms',
      message: 'Tal & SMS ingår alltid för 5 GB. Kryssa i Aktivera tal & SMS.',
    });
    expect(selectionProblem(seedCatalog, { dataLimit: 1500, callAndSms: false, roaming: false })).toEqual({
      field: 'roaming',
      message: 'Roaming ingår alltid för 1,5 GB. Kryssa i Aktivera roaming.',
    });
    expect(selectionProblem(seedCatalog, { dataLimit: 50000, callAndSms: true, roaming: false })).toEqual({
      field: 'roaming',
      message: 'Roaming ingår alltid för 50 GB med tal & SMS. Kryssa i Aktivera roaming.',
    });
    expect(selectionProblem(seedCatalog, { dataLimit: 50000, callAndSms: false, roaming: true })).toEqual({
      field: 'roaming',
      message: 'Roaming finns inte för 50 GB utan tal & SMS. Ta bort krysset för Aktivera roaming.',
    });
    expect(selectionProblem(catalog, { dataLimit: 1000, callAndSms: false, roaming: true })?.field).toBe('roaming');
    expect(selectionProblem(catalog, { dataLimit: 1500, callAndSms: false, roaming: true })).toBeNull();
  });
});
