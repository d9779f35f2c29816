// How many login links may be asked for, per client address and per e-mail address. A module of its own so
// that the purge (which keeps rate-limit counters as long as the longest window) needs nothing else of the
// login flow.

// Links to one address: at most ADDRESS_SOURCE_LIMIT from one source (client address), ADDRESS_LIMIT from all of
// them together, so no single source can use up an address's links and lock its owner out.
export const ADDRESS_SOURCE_LIMIT = { max: 5, windowMs: 15 * 60 * 1000 };
export const ADDRESS_LIMIT = { max: 20, windowMs: 15 * 60 * 1000 };
export const IP_LIMIT = { max: 30, windowMs: 15 * 60 * 1000 };
