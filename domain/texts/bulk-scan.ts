// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:bulkScan (/add/bulk with JS: continuous scanning, the offline queue, live preview, progress)
import { grouped } from './common.ts';

export const tBulkScan = {
  open: 'Skanna med kameran',
  done: 'Klar',
  scanned: (n: number) => `${n} skannade`,
  added: (iccid: string) => `…${iccid.slice(-8)} tillagt i listan.`,
  repeat: (iccid: string) => `…${iccid.slice(-8)} redan i listan`,
  waiting: (n: number) =>
    n === 1
      ? '1 skannat ICCID väntar, sparat i den här webbläsaren.'
      : `${n} skannade ICCID väntar, sparade i den här webbläsaren.`,
  offline: (n: number) =>
    n === 1
      ? 'Inget nätverk. 1 skannat ICCID väntar och skickas när nätverket är tillbaka.'
      : `Inget nätverk. ${n} skannade ICCID väntar och skickas när nätverket är tillbaka.`,
  offlineNothing: 'Inget nätverk. Det du skannar sparas i den här webbläsaren tills nätverket är tillbaka.',
  back: (n: number) => `Nätverket är tillbaka – förhandsgranska ${n} väntande`,
  clear: 'Töm listan',
  updating: 'Uppdaterar förhandsgranskningen …',
  tooMany: (n: number, max: number) => `${grouped(n)} ICCID-nummer – högst ${grouped(max)} går på en gång.`,
  failed: 'Förhandsgranskningen kunde inte hämtas just nu.',
  progressLabel: 'Aktivering',
  progress: (done: number, total: number) => `Aktiverar… ${grouped(done)} / ${grouped(total)}`,
  stopped: (done: number, left: number) =>
    `Nätverket svarade inte. ${done} rader är klara och sparade; ${left} återstår och har inte skickats.`,
  retry: 'Försök igen',
  remaining: 'Återstår',
  notSent: 'Inte skickat ännu',
} as const;
