// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:usage (usage records taken in: why a record was refused; a period asked for: why it is wrong)
export const tUsage = {
  refused: {
    notAnObject: 'Posten är inte ett objekt med fälten recordId, iccid, start, end, bytesUp och bytesDown.',
    recordId: (max: number) => `recordId saknas eller är ogiltigt: 1–${max} synliga tecken.`,
    iccid: (problem: string) => `iccid är ogiltigt: ${problem}`,
    time: (field: 'start' | 'end') =>
      `${field} är ingen tidpunkt i ISO 8601 med tidszon, till exempel 2026-11-28T14:45:00+01:00.`,
    endBeforeStart: 'end ligger före start.',
    tooLong: (hours: number) => `Intervallet mellan start och end är längre än ${hours} timmar.`,
    tooOld: (days: number) => `start ligger längre bak än lagringstiden för rådata (${days} dagar).`,
    future: 'start ligger i framtiden.',
    bytes: (field: 'bytesUp' | 'bytesDown') => `${field} saknas eller är inget heltal från 0 och uppåt.`,
    network: 'network är ogiltigt: ange MCC-MNC, till exempel 240-01.',
    country: 'country är ogiltigt: ange en landskod i ISO 3166 alpha-2, till exempel SE.',
    rat: (max: number) => `rat är ogiltigt: högst ${max} tecken, bokstäver, siffror och bindestreck.`,
    imei: 'imei är ogiltigt: 14–16 siffror.',
  },
  period: {
    from: 'from är inget datum (ÅÅÅÅ-MM-DD) eller ingen tidpunkt i ISO 8601 med tidszon.',
    to: 'to är inget datum (ÅÅÅÅ-MM-DD) eller ingen tidpunkt i ISO 8601 med tidszon.',
    order: 'to ligger inte efter from.',
    tooLong: (days: number) => `Perioden är längre än ${days} dagar.`,
  },
};
