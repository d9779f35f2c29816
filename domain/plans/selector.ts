// The rate plan selector's rules (spec 4 and 5). Pure (its only import is the texts): the form component in
// the browser and the server's validation use this same module.
import { t } from '#domain/texts/common.ts';

export type PlanOption = { dataLimit: number; call: boolean; sms: boolean; roaming: boolean; isLegacy?: boolean };
export type Selection = { dataLimit: number | null; callAndSms: boolean; roaming: boolean };

/** The data amounts to choose from: duplicates removed, ascending; only amounts some plan can be chosen with. */
export function dataAmounts(plans: readonly PlanOption[]): number[] {
  return [...new Set(plans.filter((p) => !p.isLegacy && p.call === p.sms).map((p) => p.dataLimit))].sort(
    (a, b) => a - b,
  );
}

/** 1000 MB or more in GB (Swedish decimal comma), below that in MB. */
export function formatDataAmount(mb: number): string {
  if (mb >= 1000) return `${String(Math.round((mb / 1000) * 1000) / 1000).replace('.', ',')} GB`;
  return `${mb} MB`;
}

// The plans a selection can end on: not legacy, and call and sms alike (the one option sets both).
const choosable = (plans: readonly PlanOption[], dataLimit: number | null) =>
  dataLimit === null ? [] : plans.filter((p) => p.dataLimit === dataLimit && !p.isLegacy && p.call === p.sms);

/**
 * What an option can be: 'needsAmount' before an amount is chosen (rule 1); 'unavailable' when no plan left
 * has it (off and disabled); 'included' when every plan left has it (on and locked); else 'free'.
 */
export type OptionRule = 'needsAmount' | 'free' | 'included' | 'unavailable';
export type OptionRules = { callAndSms: OptionRule; roaming: OptionRule };

function ruleFor<P>(candidates: readonly P[], has: (p: P) => boolean): OptionRule {
  if (candidates.length === 0 || !candidates.some(has)) return 'unavailable';
  return candidates.every(has) ? 'included' : 'free';
}

/**
 * The spec's rules, made strict enough that every reachable choice has a plan. Rule 2: tal & SMS by the plans
 * of the amount. Rule 3: roaming by the plans of the amount that match tal & SMS as it then stands (on: only
 * plans with call, sms and roaming count; off: only those without call and sms).
 */
export function optionRules(plans: readonly PlanOption[], s: Selection): OptionRules {
  if (s.dataLimit === null) return { callAndSms: 'needsAmount', roaming: 'needsAmount' };
  const candidates = choosable(plans, s.dataLimit);
  const callAndSms = ruleFor(candidates, (p) => p.call);
  const withCall = applyRule(callAndSms, s.callAndSms);
  return {
    callAndSms,
    roaming: ruleFor(
      candidates.filter((p) => p.call === withCall),
      (p) => p.roaming,
    ),
  };
}

/**
 * The rules a page shows. Rule 1 always, from the first paint: whether an amount is chosen is known in the browser
 * (with JS by the form's state, without it by CSS on the select), so the boxes are disabled exactly while none is.
 * Rules 2 and 3 only from the user's first change (`changed`): the server cannot lock a box (without JS the amount
 * can change after the page was made), and JS arriving must not switch or move what the server drew.
 */
export function shownRules(plans: readonly PlanOption[], s: Selection, changed: boolean): OptionRules {
  if (s.dataLimit === null || changed) return optionRules(plans, s);
  return { callAndSms: 'free', roaming: 'free' };
}

function applyRule(rule: OptionRule, wanted: boolean): boolean {
  return rule === 'included' ? true : rule === 'free' ? wanted : false;
}

/** The selection as the rules make it: an unknown amount cleared, locked options on, unavailable ones off. */
export function normalizeSelection(plans: readonly PlanOption[], s: Selection): Selection {
  const dataLimit = s.dataLimit !== null && dataAmounts(plans).includes(s.dataLimit) ? s.dataLimit : null;
  const rules = optionRules(plans, { ...s, dataLimit });
  const callAndSms = applyRule(rules.callAndSms, s.callAndSms);
  return { dataLimit, callAndSms, roaming: applyRule(rules.roaming, s.roaming) };
}

/**
 * The plan for a selection: the non-legacy plan with that amount whose call and sms equal callAndSms and
 * whose roaming equals roaming; if several, the lowest code; null if none.
 */
export function resolvePlan<P extends PlanOption & { code: string; isLegacy: boolean }>(
  plans: readonly P[],
  s: Selection,
): P | null {
  const matches = plans
    .filter(
      (p) =>
        !p.isLegacy &&
        p.dataLimit === s.dataLimit &&
        p.call === s.callAndSms &&
        p.sms === s.callAndSms &&
        p.roaming === s.roaming,
    )
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return matches[0] ?? null;
}

/** "för 50 GB", and "med/utan tal & SMS" too where tal & SMS is the user's choice and decides roaming. */
export function optionContext(plans: readonly PlanOption[], s: Selection, option: 'callAndSms' | 'roaming'): string {
  const amount = formatDataAmount(s.dataLimit ?? 0);
  const callIsChoice = optionRules(plans, s).callAndSms === 'free';
  return t.plans.forAmount(amount, option === 'roaming' && callIsChoice ? s.callAndSms : undefined);
}

/** Why a posted selection cannot be saved, in Swedish, with the field to mark; null when it can. */
export function selectionProblem(
  plans: readonly (PlanOption & { code: string; isLegacy: boolean })[],
  s: Selection,
): { field: 'dataLimit' | 'callAndSms' | 'roaming'; message: string } | null {
  return selectionProblems(plans, s)[0] ?? null;
}

/**
 * Every option to change before a posted selection can be saved, each with its field and Swedish message (none
 * when it can be saved): tal & SMS and roaming both when both make the choice impossible, roaming judged as
 * it stands once tal & SMS is set right (the rules' order).
 */
export function selectionProblems(
  plans: readonly (PlanOption & { code: string; isLegacy: boolean })[],
  s: Selection,
): { field: 'dataLimit' | 'callAndSms' | 'roaming'; message: string }[] {
  if (s.dataLimit === null) return [{ field: 'dataLimit', message: t.plans.chooseAmount }];
  if (!dataAmounts(plans).includes(s.dataLimit)) return [{ field: 'dataLimit', message: t.plans.unknownAmount }];
  const rules = optionRules(plans, s);
  const what = (option: 'callAndSms' | 'roaming') => optionContext(plans, s, option);
  const problems: { field: 'callAndSms' | 'roaming'; message: string }[] = [];
  if (rules.callAndSms === 'unavailable' && s.callAndSms)
    problems.push({ field: 'callAndSms', message: t.plans.callAndSmsUnavailable(what('callAndSms')) });
  if (rules.callAndSms === 'included' && !s.callAndSms)
    problems.push({ field: 'callAndSms', message: t.plans.callAndSmsRequired(what('callAndSms')) });
  // Roaming's rule already reads tal & SMS as the rules set it (the rules' order).
  const roamingWhat = what('roaming');
  if (rules.roaming === 'unavailable' && s.roaming)
    problems.push({ field: 'roaming', message: t.plans.roamingUnavailable(roamingWhat) });
  if (rules.roaming === 'included' && !s.roaming)
    problems.push({ field: 'roaming', message: t.plans.roamingRequired(roamingWhat) });
  if (!problems.length && !resolvePlan(plans, s)) problems.push({ field: 'roaming', message: t.plans.noPlan });
  return problems;
}
