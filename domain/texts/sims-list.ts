// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:simsList (/sims as a work surface: the wide screen's extra columns, the selection toolbar)
export const tSimsList = {
  /** The column of the activation day (wide screens). */
  activated: 'Aktiverad',
  /** The toolbar that appears when SIMs are ticked. */
  toolbar: 'Markerade SIM-kort',
  /** Without JavaScript the toolbar counts the ticked boxes itself (CSS): this text stands before the number. */
  pickedCount: 'Markerade:',
  /** The page's first link (visible on focus): past the search and the view to the rows. */
  skipToList: 'Hoppa till listan',
} as const;
