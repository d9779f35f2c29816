// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:fleetUsage (/sims by usage: its columns, sorts and filters, a figure in words, the list export's columns)
import type { Filter, Sort } from '#domain/sims/view.ts';

export const tFleetUsage = {
  /** The column of this month's usage (and its share of the plan's data amount). */
  usage: 'Förbrukning i månaden',
  /** The column of the last sighting. */
  seen: 'Senast sedd',
  /** The two columns' names on a phone. */
  usageShort: 'Data',
  seenShort: 'Sedd',
  /** The view's controls above the table. */
  sortLabel: 'Sortera',
  filterLabel: 'Visa',
  apply: 'Visa',
  sorts: {
    'activated-desc': 'Aktiverad, nyast först',
    'activated-asc': 'Aktiverad, äldst först',
    'usage-desc': 'Förbrukning i månaden, mest först',
    'usage-asc': 'Förbrukning i månaden, minst först',
    'seen-desc': 'Senast sedd, senast först',
    'seen-asc': 'Senast sedd, längst sedan först',
  } satisfies Record<Sort, string>,
  all: 'Alla SIM-kort',
  filters: {
    over80: 'Över 80 % av datamängden',
    silent24h: 'Ingen trafik på 24 timmar',
    silent7d: 'Ingen trafik på 7 dagar',
    never: 'Ingen trafik någonsin',
  } satisfies Record<Filter, string>,
  /** A column header's link: what a click does. */
  sortBy: (column: string, descending: boolean) =>
    `Sortera på ${column.toLowerCase()}, ${descending ? 'fallande' : 'stigande'}`,
  /** No record this month / never seen. */
  none: '–',
  never: 'Aldrig',
  /** How long ago, in words. */
  ago: (ms: number): string => {
    const min = Math.floor(ms / 60_000);
    if (min < 1) return 'Nyss';
    if (min < 60) return `${min} min sedan`;
    const hours = Math.floor(min / 60);
    if (hours < 24) return `${hours} tim sedan`;
    const days = Math.floor(hours / 24);
    return days === 1 ? '1 dag sedan' : `${days} dagar sedan`;
  },
  /** "Data till och med 14:45": how fresh the figures are. */
  asOf: (time: string) => `Data till och med ${time}`,
  /** The view found nothing. */
  emptyView: 'Inga SIM-kort i den här visningen.',
  /** The list export's columns. */
  columns: {
    monthBytes: 'Förbrukning i månaden (byte)',
    percent: 'Andel av datamängden (%)',
    lastSeen: 'Senast sedd',
    network: 'Nät',
    country: 'Land',
  },
} as const;
