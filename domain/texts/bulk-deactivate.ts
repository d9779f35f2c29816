// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:bulkDeactivate (deactivate many from /sims: the checkboxes, the confirm and result pages)
import { grouped } from './common.ts';

export const tBulkDeactivate = {
  select: (iccid: string) => `Markera SIM-kort ${iccid}`,
  selectAll: 'Markera alla på sidan',
  submit: 'Avaktivera markerade',
  title: 'Avaktivera flera SIM-kort',
  resultTitle: 'Resultat av avaktiveringen',
  none: 'Inga SIM-kort är markerade. Gå tillbaka och markera de SIM-kort som ska avaktiveras.',
  tooMany: (max: number) => `Högst ${max} SIM-kort kan avaktiveras åt gången.`,
  willDeactivate: (n: number) =>
    n === 1
      ? '1 SIM-kort kommer att avaktiveras. Det går inte att ångra.'
      : `${n} SIM-kort kommer att avaktiveras. Det går inte att ångra.`,
  refusedHeading: 'Avaktiveras inte',
  confirm: (n: number) => `Avaktivera ${n} SIM-kort`,
  cancel: 'Avbryt',
  back: 'Tillbaka till SIM-korten',
  outcome: 'Resultat',
  outcomes: {
    deactivated: 'Avaktiverat',
    notFound: 'Finns inte',
    legacy: 'Äldre abonnemang: avaktiveras inte här, kontakta supporten',
    alreadyInactive: 'Redan avaktiverat',
  } as Record<string, string>,
  unknown: (id: number) => `Okänt SIM-kort (${id})`,
  notListed: (n: number) =>
    n === 1
      ? '1 markerat SIM-kort är inte längre aktivt hos er.'
      : `${n} markerade SIM-kort är inte längre aktiva hos er.`,
  // The selection on /sims (JS: in place; without JS: the page comes back ticked) and the dialog.
  unselectAll: 'Avmarkera alla på sidan',
  // narrowed: a search, a tag or a state narrows the list ("sökningen" is all of them).
  selectMatching: (n: number, narrowed: boolean, exact = true) =>
    !exact
      ? `Markera alla som matchar sökningen (fler än ${grouped(n)})`
      : narrowed
        ? `Markera alla ${grouped(n)} som matchar sökningen`
        : `Markera alla ${grouped(n)} SIM-kort`,
  clearMatching: 'Avmarkera alla',
  selected: (n: number) => (n === 1 ? '1 markerad' : `${grouped(n)} markerade`),
  matchingSelected: (n: number, narrowed: boolean, exact = true) =>
    !exact
      ? `Alla SIM-kort som matchar sökningen är markerade (fler än ${grouped(n)}).`
      : narrowed
        ? `Alla ${grouped(n)} SIM-kort som matchar sökningen är markerade.`
        : `Alla ${grouped(n)} SIM-kort är markerade.`,
  capped: (total: number, max: number, exact = true) =>
    `${exact ? grouped(total) : `Fler än ${grouped(total)}`} SIM-kort matchar, men högst ${grouped(max)} kan avaktiveras åt gången: de ${grouped(max)} första i listan tas med.`,
  /** What "all that match" took: the search's text, the tags and the state, in words. */
  matchingFor: (m: { q: string; tag?: readonly string[]; status?: 'active' | 'paused' | null }) => {
    const parts: string[] = [];
    if (m.q) parts.push(`som matchar ”${m.q}”`);
    const tags = m.tag ?? [];
    if (tags.length)
      parts.push(`med ${tags.length === 1 ? 'taggen' : 'taggarna'} ${tags.map((x) => `”${x}”`).join(' och ')}`);
    if (m.status) parts.push(m.status === 'paused' ? 'som är pausade' : 'som inte är pausade');
    return parts.length ? `Alla SIM-kort ${parts.join(', ')}.` : 'Alla aktiva SIM-kort.';
  },
  listLabel: 'SIM-kort som avaktiveras',
  loading: 'Hämtar SIM-korten …',
  loadFailed: 'Listan kunde inte hämtas. Försök igen eller ladda om sidan.',
} as const;
