// The demo company's SIMs (server/db/seed.ts makes them) and what each does on the network in the demo's usage
// (server/usage/demo.ts seeds 90 days of it, `usage:simulate` feeds it live): one near its plan's data amount, one
// roaming now and then, one silent for 2 days and one for 8; the fifth was deactivated long ago.
import { withCheckDigit } from '#domain/sims/iccid.ts';

/** How a demo SIM uses data: its rhythm, volume, silence and trips abroad. */
export type DemoTraffic = {
  /** Bytes in an hour of full activity (the rhythm scales it). */
  hourly: number;
  /** 'work': by day on weekdays, little at night and on weekends; 'steady': a device that reports all day. */
  rhythm: 'work' | 'steady';
  /** Hours since the last traffic (the SIM went silent then); 0 for a SIM that is live. */
  silentHours: number;
  /** This month's use as a share of its plan's data amount, at least (the SIM near its limit). */
  monthShare?: number;
  /** Trips abroad: [days ago the trip began, its length in days, network MCC-MNC, country]. */
  trips?: Array<[number, number, string, string]>;
  network: string;
  rat: string;
};

export type DemoSim = {
  iccid: string;
  mark: string;
  note: string;
  plan: string;
  /** [years back, month (0-11), day] of its activation. */
  from: [number, number, number];
  change?: { at: [number, number, number]; plan: string };
  off?: [number, number, number];
  traffic?: DemoTraffic;
};

const iccid = (n: string) => withCheckDigit(n + '0');

export const demoSims: DemoSim[] = [
  {
    iccid: iccid('894601234567890001'),
    mark: 'Lager Göteborg',
    note: 'Handdator 1',
    plan: 'DATA-5000',
    from: [1, 0, 15],
    traffic: { hourly: 22e6, rhythm: 'work', silentHours: 0, monthShare: 0.88, network: '240-01', rat: 'LTE' },
  },
  {
    iccid: iccid('894601234567890002'),
    mark: 'Lager Göteborg',
    note: 'Handdator 2',
    plan: 'DATA-1000',
    from: [1, 2, 1],
    change: { at: [1, 5, 10], plan: 'DATA-5000-TS' },
    traffic: { hourly: 12e6, rhythm: 'work', silentHours: 8 * 24 + 5, network: '240-01', rat: 'LTE' },
  },
  {
    iccid: iccid('894601234567890003'),
    mark: 'Servicebil ABC123',
    note: 'Router',
    plan: 'DATA-20000-R',
    from: [1, 4, 20],
    traffic: {
      hourly: 60e6,
      rhythm: 'work',
      silentHours: 0,
      trips: [
        [64, 4, '262-01', 'DE'],
        [33, 3, '242-01', 'NO'],
        [12, 2, '238-01', 'DK'],
      ],
      network: '240-02',
      rat: 'NR',
    },
  },
  {
    iccid: iccid('894601234567890004'),
    mark: 'Kontor Malmö',
    note: 'Larm',
    plan: 'OLD-2000',
    from: [2, 8, 1],
    traffic: { hourly: 0.4e6, rhythm: 'steady', silentHours: 2 * 24 + 3, network: '240-08', rat: 'LTE-M' },
  },
  {
    iccid: iccid('894601234567890005'),
    mark: 'Butik Lund',
    note: 'Kassa',
    plan: 'DATA-500',
    from: [1, 1, 1],
    off: [1, 9, 12],
  },
];

/** The demo SIMs that are live on the network now (the ones `usage:simulate` feeds). */
export const liveDemoSims = (): DemoSim[] =>
  demoSims.filter((s) => !s.off && s.traffic !== undefined && s.traffic.silentHours === 0);
