// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:scanner (camera barcode scanner on the activate screen)
import { tScanButton } from './scan-button.ts';

export const tScanner = {
  open: tScanButton.open,
  close: tScanButton.close,
  title: tScanButton.title,
  loading: tScanButton.loading,
  starting: 'Startar kameran …',
  scanning: 'Rikta kameran mot ICCID-streckkoden så att den hamnar inom rutan.',
  paused: 'Skannern är pausad. Tryck på Fortsätt skanna för att läsa igen.',
  stopped: 'Kameran är avstängd.',
  pause: 'Pausa',
  resume: 'Fortsätt skanna',
  start: 'Starta kameran',
  stop: 'Stäng av kameran',
  camera: 'Kamera',
  cameraN: (n: number) => `Kamera ${n}`,
  fromFile: 'Skanna från bild',
  fromFileHint: 'Ta ett foto av streckkoden eller välj en bild. Det går när kameran är avstängd.',
  readingFile: 'Läser bilden …',
  rejectedHint: {
    notIccid: 'Den streckkoden är inte ett ICCID-nummer (20 siffror). Rikta kameran mot ICCID-streckkoden.',
    checkDigit:
      'Streckkoden har 20 siffror men kontrollsiffran stämmer inte, så det är inte ett giltigt ICCID-nummer. Skanna igen eller skriv in numret för hand.',
  },
  filled: tScanButton.filled,
  manual: 'Du kan alltid skriva in ICCID för hand i fältet ovan.',
  problems: {
    unsupported: 'Webbläsaren kan inte strömma bild från kameran. Skriv in ICCID för hand eller skanna från en bild.',
    insecure:
      'Kameran kan bara användas över en säker anslutning (https eller localhost). Skriv in ICCID för hand eller skanna från en bild.',
    denied:
      'Webbsidan har inte fått använda kameran. Tillåt kameran i webbläsarens inställningar, eller skriv in ICCID för hand.',
    notFound: 'Ingen kamera hittades. Skriv in ICCID för hand eller skanna från en bild.',
    inUse: 'Kameran används redan av ett annat program. Stäng det och försök igen.',
    failed: 'Kameran gick inte att starta. Skriv in ICCID för hand eller skanna från en bild.',
    load: tScanButton.loadFailed,
  },
  file: {
    noBarcode: 'Ingen streckkod hittades i bilden. Ta en ny bild där streckkoden syns skarpt, rakt och nära.',
    notIccid: 'Streckkoden i bilden är inte ett giltigt ICCID-nummer (20 siffror).',
    checkDigit:
      'Streckkoden i bilden har 20 siffror men kontrollsiffran stämmer inte, så det är inte ett giltigt ICCID-nummer.',
    unreadable: 'Bilden gick inte att läsa. Välj en annan bild.',
  },
  refused: {
    notScanning: 'Skannern skannar inte, så den kan inte pausas.',
    notRunning: 'Skannern är inte igång.',
    alreadyScanning: 'Skannern skannar redan.',
    fileWhileRunning: 'Stäng av kameran innan du skannar från en bild.',
  },
} as const;
