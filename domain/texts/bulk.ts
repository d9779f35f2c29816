// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
import { grouped } from './common.ts';

export const tBulk = {
  duplicateInList: 'ICCID-numret finns redan tidigare i listan.',
  alreadyActive: 'SIM-kortet är redan aktivt i ert företag.',
  // Never whose: another company's SIMs are not ours to reveal.
  activeElsewhere: 'ICCID-numret är redan aktivt hos ett annat företag. Kontakta supporten om kortet är ert.',
  activatedTitle: (n: number) => (n === 1 ? '1 SIM-kort är aktiverat' : `${grouped(n)} SIM-kort är aktiverade`),
  deactivatedTitle: (n: number) => (n === 1 ? '1 SIM-kort är avaktiverat' : `${grouped(n)} SIM-kort är avaktiverade`),
  summary: (done: number, refused: number) =>
    `${grouped(done)} klara, ${grouped(refused)} avvisade av ${grouped(done + refused)}.`,
} as const;
