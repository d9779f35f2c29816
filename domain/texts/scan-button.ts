// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:scan-button (what /add shows of the barcode scanner before it has loaded: the button, its place while it
// loads or why it could not, the notice after a scan; the scanner's own texts are in scanner.ts, loaded with it)
export const tScanButton = {
  open: 'Skanna streckkod',
  close: 'Stäng skanner',
  title: 'Streckkodsskanner',
  loading: 'Laddar skannern …',
  loadFailed: 'Skannern gick inte att ladda. Kontrollera anslutningen och försök igen, eller skriv in ICCID för hand.',
  filled: (iccid: string) => `ICCID ${iccid} är inläst från streckkoden.`,
} as const;
