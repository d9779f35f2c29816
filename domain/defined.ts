// A value the code knows is there (an array's own index, a regular expression's group, a key of a fixed table),
// checked instead of asserted with `!` (lint forbids it): if the knowledge is ever wrong, the Error names what was
// missing at the place it was read, not a TypeError further on.

/** `value`, or an Error saying `what` was missing (null or undefined). */
export function defined<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`Missing: ${what}`);
  return value;
}
