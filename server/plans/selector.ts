// The rate plan selector's rules (spec 4 and 5). Pure and dependency-free: the form component in the
// browser and the server's validation use this same module.

export type PlanOption = { dataLimit: number; call: boolean; sms: boolean; roaming: boolean };
export type Selection = { dataLimit: number | null; callAndSms: boolean; roaming: boolean };

export const EMPTY_SELECTION: Selection = { dataLimit: null, callAndSms: false, roaming: false };

/** The data amounts to choose from: duplicates removed, ascending. */
export function dataAmounts(plans: readonly PlanOption[]): number[] {
  return [...new Set(plans.map((p) => p.dataLimit))].sort((a, b) => a - b);
}

/** 1000 MB or more in GB (Swedish decimal comma), below that in MB. */
export function formatDataAmount(mb: number): string {
  if (mb >= 1000) return `${String(Math.round((mb / 1000) * 1000) / 1000).replace('.', ',')} GB`;
  return `${mb} MB`;
}

const withAmount = (plans: readonly PlanOption[], dataLimit: number | null) =>
  dataLimit === null ? [] : plans.filter((p) => p.dataLimit === dataLimit);

/** Rule 2: tal & SMS only if some plan with the chosen amount has both call and sms. */
export function canCallAndSms(plans: readonly PlanOption[], dataLimit: number | null): boolean {
  return withAmount(plans, dataLimit).some((p) => p.call && p.sms);
}

/** Rule 3: roaming only if some plan with the amount has roaming; with tal & SMS on, only plans with all three count. */
export function canRoaming(plans: readonly PlanOption[], dataLimit: number | null, callAndSms: boolean): boolean {
  return withAmount(plans, dataLimit).some((p) => p.roaming && (!callAndSms || (p.call && p.sms)));
}

/** Clears the options that the rules no longer allow (after a change of amount or option). */
export function normalizeSelection(plans: readonly PlanOption[], s: Selection): Selection {
  const dataLimit = s.dataLimit !== null && dataAmounts(plans).includes(s.dataLimit) ? s.dataLimit : null;
  const callAndSms = s.callAndSms && canCallAndSms(plans, dataLimit);
  const roaming = s.roaming && canRoaming(plans, dataLimit, callAndSms);
  return { dataLimit, callAndSms, roaming };
}

/**
 * The plan for a selection: the non-legacy plan with that amount whose call and sms equal callAndSms and
 * whose roaming equals roaming; if several, the lowest code; null if none.
 */
export function resolvePlan<P extends PlanOption & { code: string; isLegacy: boolean }>(plans: readonly P[], s: Selection): P | null {
  const matches = plans
    .filter((p) => !p.isLegacy && p.dataLimit === s.dataLimit && p.call === s.callAndSms && p.sms === s.callAndSms && p.roaming === s.roaming)
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return matches[0] ?? null;
}

/** Why a selection cannot be saved, in Swedish, or null when it can. */
export function selectionProblem(plans: readonly (PlanOption & { code: string; isLegacy: boolean })[], s: Selection): { field: 'dataLimit' | 'callAndSms' | 'roaming'; message: string } | null {
  if (s.dataLimit === null) return { field: 'dataLimit', message: 'Välj en datamängd.' };
  if (!dataAmounts(plans).includes(s.dataLimit)) return { field: 'dataLimit', message: 'Datamängden finns inte. Välj en annan.' };
  if (s.callAndSms && !canCallAndSms(plans, s.dataLimit)) return { field: 'callAndSms', message: 'Tal & SMS går inte att aktivera för den valda datamängden.' };
  if (s.roaming && !canRoaming(plans, s.dataLimit, s.callAndSms)) return { field: 'roaming', message: 'Roaming går inte att aktivera för den valda kombinationen.' };
  if (!resolvePlan(plans, s)) return { field: 'roaming', message: 'Det finns inget abonnemang med den valda kombinationen. Ändra valen.' };
  return null;
}

export const selectorTexts = {
  placeholder: 'Datamängd',
  callAndSms: 'Aktivera tal & SMS',
  roaming: 'Aktivera roaming',
  callAndSmsHelp: 'Kostnad tillkommer för tal & SMS. Se prislista för priser.',
  roamingHelp: 'Nationell & internationell roaming. Kostnad tillkommer för roaming. Se prislista för priser.',
  callAndSmsNeedsAmount: 'Du måste välja en datamängd för att kunna aktivera tal & SMS',
  roamingNeedsAmount: 'Du måste välja en datamängd för att kunna aktivera roaming',
} as const;
