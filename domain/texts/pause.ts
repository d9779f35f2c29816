// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:pause (the paused state of a SIM: issue 40)
export const tPause = {
  paused: 'Pausad',
  active: 'Aktiv',
  pause: 'Pausa',
  resume: 'Återuppta',
  stateLabel: 'Status',
  allStates: 'Aktiva och pausade',
  onlyActive: 'Bara aktiva',
  onlyPaused: 'Bara pausade',
  badState: 'Välj active eller paused.',
  pausedHint: 'Ett pausat SIM-kort behåller nummer och abonnemang men skickar ingen data. Det kan återupptas direkt.',
  pausedSince: (when: string, by: string) => `Pausad sedan ${when} av ${by}`,
  byRule: (name: string) => `regeln ”${name}”`,
  // The SIM page's state panel (app/components/sims/SimPause.tsx).
  stateTitle: 'Paus',
  pauseHint: 'Pausa om SIM-kortet inte ska skicka data för en tid: nummer och abonnemang finns kvar.',
  pausedLabel: 'Pausad',
  pausedWhen: (when: string) => `Pausad sedan ${when}`,
  // /sims: the ticked SIMs' buttons, and a refused list.
  bulkPauseLabel: 'Pausa markerade SIM-kort',
  bulkResumeLabel: 'Återuppta markerade SIM-kort',
  bulkNone: 'Markera minst ett SIM-kort.',
  toastPaused: 'SIM-kortet är pausat',
  toastResumed: 'SIM-kortet är återupptaget',
  toastPausedMany: (n: number) => `${n} SIM-kort pausade`,
  toastResumedMany: (n: number) => `${n} SIM-kort återupptagna`,
  alreadyPaused: 'SIM-kortet är redan pausat.',
  notPaused: 'SIM-kortet är inte pausat.',
  history: {
    paused: 'Pausad',
    resumed: 'Återupptagen',
    pausedByRule: (name: string) => `Pausad av regeln ”${name}”`,
  },
  audit: {
    simPaused: (iccid: string) => `Pausade ${iccid}`,
    simResumed: (iccid: string) => `Återupptog ${iccid}`,
    bulkPause: (done: number, total: number) => `Pausade ${done} av ${total} SIM-kort i en lista`,
    bulkResume: (done: number, total: number) => `Återupptog ${done} av ${total} SIM-kort i en lista`,
  },
  outcomes: {
    paused: 'Pausad',
    alreadyPaused: 'Redan pausad',
    resumed: 'Återupptagen',
    notPaused: 'Inte pausad',
    notFound: 'Finns inte',
  },
} as const;
