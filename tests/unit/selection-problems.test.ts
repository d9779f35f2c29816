// A refused plan choice names every option to change (the form shows each under the plan selector and in the
// error summary): tal & SMS and roaming both when both make the choice impossible, roaming judged as it stands
// once tal & SMS is set right, and a choice the rules allow has no problem at all.
import { describe, expect, it } from 'vitest';
import { normalizeSelection, selectionProblem, selectionProblems } from '#domain/plans/selector.ts';
import { t } from '#domain/texts/common.ts';

const plan = (code: string, dataLimit: number, call: boolean, roaming: boolean) => ({
  code,
  dataLimit,
  call,
  sms: call,
  roaming,
  isLegacy: false,
});
// The demo catalog's shape (server/db/seed.ts).
const plans = [
  plan('DATA-500', 500, false, false),
  plan('DATA-1500-R', 1500, false, true),
  plan('DATA-5000', 5000, false, false),
  plan('DATA-5000-TS', 5000, true, false),
  plan('DATA-5000-TSR', 5000, true, true),
  plan('DATA-20000-R', 20000, false, true),
  plan('DATA-50000', 50000, false, false),
  plan('DATA-50000-TSR', 50000, true, true),
];

describe('every option to change', () => {
  it('names tal & SMS and roaming when both are wrong, each on its field', () => {
    expect(selectionProblems(plans, { dataLimit: 500, callAndSms: true, roaming: true })).toEqual([
      { field: 'callAndSms', message: t.plans.callAndSmsUnavailable('för 500 MB') },
      { field: 'roaming', message: t.plans.roamingUnavailable('för 500 MB') },
    ]);
    // 20 GB: no tal & SMS, roaming always.
    expect(selectionProblems(plans, { dataLimit: 20000, callAndSms: true, roaming: false })).toEqual([
      { field: 'callAndSms', message: t.plans.callAndSmsUnavailable('för 20 GB') },
      { field: 'roaming', message: t.plans.roamingRequired('för 20 GB') },
    ]);
    // The first is still the one problem of selectionProblem.
    expect(selectionProblem(plans, { dataLimit: 500, callAndSms: true, roaming: true })?.field).toBe('callAndSms');
  });

  it('names one option when only one is wrong, and none for a choice the rules allow', () => {
    expect(selectionProblems(plans, { dataLimit: 1500, callAndSms: false, roaming: false })).toEqual([
      { field: 'roaming', message: t.plans.roamingRequired('för 1,5 GB') },
    ]);
    expect(selectionProblems(plans, { dataLimit: 500, callAndSms: true, roaming: false })).toEqual([
      { field: 'callAndSms', message: t.plans.callAndSmsUnavailable('för 500 MB') },
    ]);
    expect(selectionProblems(plans, { dataLimit: null, callAndSms: true, roaming: true })).toEqual([
      { field: 'dataLimit', message: t.plans.chooseAmount },
    ]);
    for (const dataLimit of [500, 1500, 5000, 20000, 50000])
      for (const callAndSms of [false, true])
        for (const roaming of [false, true]) {
          const fixed = normalizeSelection(plans, { dataLimit, callAndSms, roaming });
          expect(selectionProblems(plans, fixed), JSON.stringify(fixed)).toEqual([]);
          // Changing exactly the named options makes any choice one the rules allow.
          const named = selectionProblems(plans, { dataLimit, callAndSms, roaming }).map((p) => p.field);
          const changed = { dataLimit, callAndSms, roaming };
          for (const field of named) if (field !== 'dataLimit') changed[field] = !changed[field];
          expect(selectionProblems(plans, changed), JSON.stringify({ dataLimit, callAndSms, roaming })).toEqual([]);
        }
  });
});
