// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:simUsage (one SIM's usage: the SIM page's overview, chart and sessions; GET /api/sim/{id}/usage's refusals)
export const tSimUsage = {
  title: 'Förbrukning',
  aboutTitle: 'Om SIM-kortet',
  status: 'Status',
  statuses: { active: 'Aktivt', deactivated: 'Avaktiverat' } as Record<string, string>,
  plan: 'Abonnemang',
  activated: 'Aktiverat',
  lastSeen: 'Senast sedd',
  neverSeen: 'Aldrig sedd',
  network: 'Nät',
  country: 'Land',
  notSaid: '–',
  seenWhere: (network: string, country: string) => `${network}, ${country}`,
  thisMonth: 'Denna månad',
  /** The bar's name for screen readers: the figure is said beside it. */
  monthMeter: 'Förbrukning denna månad av abonnemangets datamängd',
  percentOfPlan: (percent: number) => `${percent} % av datamängden`,
  noLimit: 'Abonnemanget har ingen datamängd.',
  asOf: (time: string) => `Data till och med ${time}`,
  asOfDay: (day: string, time: string) => `Data till och med ${day} ${time}`,
  noData: 'Ingen förbrukning än',
  perDay: 'Per dag',
  lastDays: (days: number) => `Senaste ${days} dagarna`,
  chartLabel: (days: number) => `Förbrukning per dag, senaste ${days} dagarna`,
  chartTotal: (total: string) => `Totalt ${total}`,
  chartMax: (max: string) => `Högsta dag ${max}`,
  tableSummary: 'Visa som tabell',
  day: 'Dag',
  amount: 'Förbrukning',
  sessions: 'Senaste sessionerna',
  sessionsIntro: (n: number) => `De senaste ${n} posterna från nätet, nyast först.`,
  noSessions: 'Inga sessioner än.',
  start: 'Start',
  end: 'Slut',
  up: 'Upp',
  down: 'Ner',
  rat: 'Radio',
  api: {
    /** A period longer than its granularity answers: names both fields and the granularity. */
    tooLong: (granularity: string, max: number) =>
      `Perioden från from till to är längre än ${max} dagar, det längsta som granularity=${granularity} svarar för.`,
    /** An hour series before the raw records' retention: they are gone. */
    tooOld: (days: number) =>
      `from ligger längre bak än lagringstiden för rådata (${days} dagar): be om granularity=day eller month.`,
  },
};
