// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:bulkFile (a list from a CSV or XLSX file, per-row marks, templates, result download)
import { grouped } from './common.ts';

export const tBulkFile = {
  noList: 'iccids saknas: skicka en lista med ICCID-nummer (iccids eller rows).',
  bothLists: 'Skicka antingen iccids eller rows, inte båda.',
  rowTooLong: (row: number, key: 'invoiceLineMark' | 'invoiceLineNote', max: number) =>
    `Rad ${row}: ${key === 'invoiceLineMark' ? 'fakturamärkningen' : 'fakturakommentaren'} får ha högst ${max} tecken.`,
  rowIccid: (row: number, message: string) => `Rad ${row}: ${message}`,
  rowTags: (row: number, max: number) =>
    `Rad ${row}: radens taggar och listans taggar blir fler än ${max}, det högsta antalet för ett SIM-kort.`,
  rowTag: (row: number, message: string) => `Rad ${row}, Taggar: ${message}`,
  listTooLong: (n: number, max: number) =>
    `Listan har ${grouped(n)} rader; högst ${grouped(max)} går på en gång. Dela upp listan i flera.`,
  emptyFile: 'Filen är tom.',
  fileTooLarge: (kb: number) => `Filen är för stor: högst ${grouped(kb)} kB. Dela upp den i flera filer.`,
  notAFile:
    'Filen går inte att läsa. Ladda upp en CSV-fil (komma- eller semikolonavgränsad) eller en Excel-fil (.xlsx), till exempel mallen.',
  unpackedTooLarge: (mb: number) =>
    `Filen går inte att läsa: uppackad blir Excel-filen större än ${mb} MB, mycket mer än en lista behöver. Spara bara bladet med ICCID-numren i en ny fil (eller som CSV), eller använd mallen.`,
  tooHeavy:
    'Filen går inte att läsa: den tar för lång tid eller för mycket minne att läsa. Spara bara bladet med ICCID-numren i en ny fil (eller som CSV), eller använd mallen.',
  busy: 'Just nu läses många filer på en gång. Vänta en stund och ladda upp filen igen.',
  noRows: 'Filen har inga rader med ICCID-nummer.',
  noIccidColumn: 'Rubrikraden saknar kolumnen iccid. Använd mallen, eller ta bort rubrikraden.',
  tooManyRows: (counted: number, max: number) =>
    `Filen har ${grouped(counted)} rader med ICCID-nummer; högst ${grouped(max)} går på en gång. Dela upp filen i flera och aktivera dem en i taget.`,
  iccidTooLong: (row: number, max: number) => `Rad ${row}: ICCID-cellen är för lång (högst ${max} tecken).`,
  andMore: (n: number) => `och ${n} till`,
  moreProblems: (n: number) => `… och ${n} fel till.`,
  label: 'Eller ladda upp en fil (CSV eller Excel)',
  hint: (max: number, kb: number) =>
    `Högst ${grouped(max)} ICCID-nummer per fil och högst ${grouped(kb)} kB; har du fler, dela upp filen. Enklast är att utgå från en mall.`,
  // The column rules, folded under the templates (issue 41: the hint was six lines of them).
  columnsTitle: 'Filens kolumner',
  columns:
    'iccid, fakturamärkning, fakturakommentar, taggar. Bara iccid krävs; en tom cell får värdet från fälten nedan, och radens taggar (åtskilda med kommatecken) läggs till listans. Utan rubrikrad är kolumnerna i den ordningen.',
  templates: 'Mallar:',
  templateCsv: 'CSV-mall',
  templateXlsx: 'Excel-mall',
  both: 'Klistra in en lista eller ladda upp en fil, inte båda.',
  carried: (name: string, n: number) =>
    `Listan kommer från filen ${name} (${n === 1 ? '1 rad' : `${n} rader`}). Välj en ny fil eller klistra in en lista för att byta.`,
  carriedNoName: (n: number) =>
    `Listan kommer från en fil (${n === 1 ? '1 rad' : `${n} rader`}). Välj en ny fil eller klistra in en lista för att byta.`,
  badRows: 'Listan från filen gick inte att läsa. Ladda upp filen igen.',
  tooManyLines: (n: number, max: number) =>
    `Filen har ${grouped(n)} rader; högst ${grouped(max)} ICCID-nummer går på en gång. Dela upp filen i flera.`,
  rowMark: 'Märkning',
  rowNote: 'Kommentar',
  download: 'Ladda ner resultat',
  downloadCsv: 'CSV',
  downloadXlsx: 'Excel',
  resultColumns: { iccid: 'ICCID', outcome: 'Utfall', message: 'Meddelande' },
  resultSheet: 'Resultat',
  templateSheet: 'SIM-kort',
  templateExample: { mark: 'Lager Göteborg', note: 'Låda 7', tags: 'Göteborg, Kylbilar' },
  badResult: 'Resultatet gick inte att läsa. Aktivera listan igen för ett nytt resultat.',
  scientific: (rows: string) =>
    `ICCID-numret på rad ${rows} är ett tal i exponentform (till exempel 8,9460123E+19): Excel har gjort om det till ett tal och då försvinner de sista siffrorna. Formatera ICCID-kolumnen som text och skriv in numren igen, eller använd mallen.`,
} as const;
