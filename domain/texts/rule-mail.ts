// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:ruleMail (what the rules send: the hourly e-mail digest and the toast; issue 40)
import { grouped } from './common.ts';

const sims = (n: number) => (n === 1 ? '1 SIM-kort' : `${grouped(n)} SIM-kort`);

export const tRuleMail = {
  subject: (rule: string, n: number) => `Regeln ”${rule}” har slagit till för ${sims(n)}`,
  greeting: (name: string) => `Hej ${name},`,
  lead: (rule: string, n: number) => `regeln ”${rule}” har slagit till för ${sims(n)} sedan förra sammanfattningen.`,
  listed: (shown: number, n: number) =>
    shown < n ? `De ${grouped(shown)} första av ${grouped(n)}:` : 'De här SIM-korten:',
  line: (iccid: string, mark: string, value: string, when: string, paused: boolean) =>
    `${iccid}${mark ? ` (${mark})` : ''}: ${value}, ${when}${paused ? ', pausat' : ''}`,
  more: 'Alla finns på regelns sida:',
  why: 'Du får det här för att företagets ägare har valt dig som mottagare av regeln. En sammanfattning i timmen som mest.',
  silentValue: (hours: number) => `tyst i ${grouped(hours)} timmar`,
  toastTitle: (rule: string) => `Regeln ”${rule}”`,
  toastMessage: (n: number, paused: number) =>
    `Slog till för ${sims(n)}${paused ? `; ${grouped(paused)} pausade` : ''}.`,
} as const;
