// How Swedish writes a count, in one place: every text and page that shows a number with groups uses it.

/** Made once: Number#toLocaleString('sv-SE') builds a new formatter at each call (a /sims page called it per count). */
const swedish = new Intl.NumberFormat('sv-SE');

/** A count as Swedish writes it: 1 000 000 (no-break spaces between the groups). */
export const grouped = (n: number) => swedish.format(n);
