// A table of texts read both by its own keys (a known text: a plain string) and by a key that came from outside (a
// code, a reason: maybe no text), so neither reading needs a `!`.

/** `entries`, typed so that a known key gives its text and any other string gives `string | undefined`. */
export const lookup = <T extends Record<string, string>>(entries: T): T & Record<string, string> => entries;
