// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:forms (the error summary at the top of a refused form; the SIM page as a view)
export const tForms = {
  /** The summary's heading: the number of fields to correct ("fel" is the same in singular and plural). */
  summaryTitle: (count: number) => `Rätta ${count} fel`,
  /** The summary's heading when the refusal names no field (the whole form). */
  summaryTitleForm: 'Det gick inte att spara',
  summaryLead: 'Kontrollera de markerade fälten.',
  /** A SIM that cannot be edited here (a legacy plan, or a viewer): its page is a view. */
  simView: 'Visa SIM-kort',
  /** The deactivate dialog names the SIM it is about, as the page without JavaScript does. */
  confirmIccid: 'ICCID',
};
