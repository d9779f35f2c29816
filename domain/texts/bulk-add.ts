// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:bulk (bulk activation and deactivation: the per-row messages and the summary toasts)
// @texts:bulkAdd (/add/bulk: a pasted list, its preview and its result)
import { grouped } from './common.ts';

export const tBulkAdd = {
  link: 'Aktivera flera SIM-kort på en gång',
  list: 'ICCID-nummer',
  listHint: (max: number) =>
    `Klistra in eller skriv upp till ${grouped(max)} ICCID-nummer, ett per rad eller åtskilda av mellanslag, komma eller semikolon.`,
  marksHint: 'Gäller alla SIM-kort i listan. Högst 200 tecken.',
  empty: 'Skriv eller klistra in minst ett ICCID-nummer.',
  tooMany: (n: number, max: number) =>
    `Listan har ${grouped(n)} ICCID-nummer; högst ${grouped(max)} går på en gång. Dela upp listan.`,
  preview: 'Förhandsgranska',
  previewTitle: 'Förhandsgranskning',
  previewNote: 'Inget är aktiverat ännu. Kontrollera listan och tryck sedan på knappen.',
  activating: (n: number) => (n === 1 ? 'Aktiverar 1 SIM-kort…' : `Aktiverar ${grouped(n)} SIM-kort…`),
  confirm: (n: number) => (n === 1 ? 'Aktivera 1 SIM-kort' : `Aktivera ${grouped(n)} SIM-kort`),
  nothingReady: 'Inget SIM-kort i listan kan aktiveras.',
  resultTitle: 'Resultat',
  notListed: (hidden: number, listed: number) =>
    listed > 0
      ? `Listan är lång: här visas bara de ${grouped(listed)} raderna med anmärkning; ${grouped(hidden)} rader utan anmärkning listas inte.`
      : `Listan är lång: ingen rad har någon anmärkning, och de ${grouped(hidden)} raderna listas inte här.`,
  allInDownload: 'Alla rader finns i Ladda ner resultat.',
  again: 'Förhandsgranska samma lista igen',
  counts: 'Antal per utfall',
  onlyProblems: 'Visa bara problem',
  noProblems: 'Ingen rad har något problem.',
  placeholder:
    'Här visas förhandsgranskningen: hur många SIM-kort som kan aktiveras och vilka rader som behöver åtgärdas. Inget aktiveras förrän du bekräftar.',
  row: 'Rad',
  outcome: 'Utfall',
  outcomes: {
    ready: 'Klart att aktivera',
    activated: 'Aktiverat',
    invalid: 'Ogiltigt ICCID',
    duplicateInList: 'Dubblett i listan',
    alreadyActive: 'Redan aktivt i ert företag',
    activeElsewhere: 'Aktivt hos ett annat företag',
  },
} as const;
