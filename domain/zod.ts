// zod with Swedish messages. A schema's own message always wins; every message zod would otherwise make up
// (in English) is ours, naming the field by its path, and zod's Swedish locale covers the rare rest.
// The configuration is global to zod, so it holds wherever a schema is parsed once this module is loaded:
// the schema modules import z from here, so every entry point (server, CLI, createCaller in tests) has it.
import { z } from 'zod';
import { t } from './texts/common.ts';

const v = t.validation;

type Issue = {
  code?: string;
  path?: PropertyKey[];
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint | Date;
  maximum?: number | bigint | Date;
  inclusive?: boolean;
  values?: unknown[];
  keys?: string[];
  format?: string;
  divisor?: number | bigint;
  errors?: Issue[][];
};

const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));
const list = (values: string[]) =>
  values.length > 1 ? `${values.slice(0, -1).join(', ')} ${v.or} ${values.at(-1)}` : (values[0] ?? '');

export function swedishMessage(issue: Issue): string | undefined {
  const field = issue.path?.length ? issue.path.map(String).join('.') : v.value;
  if (
    issue.input === undefined &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value')
  ) {
    return v.missing(field);
  }
  switch (issue.code) {
    case 'invalid_type':
      return v.type(field, v.types[issue.expected ?? ''] ?? v.otherType);
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? v.empty(field) : v.minChars(field, min);
      if (issue.origin === 'array' || issue.origin === 'set') return v.minItems(field, min);
      return issue.inclusive === false ? v.above(field, min) : v.atLeast(field, min);
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return v.maxChars(field, max);
      if (issue.origin === 'array' || issue.origin === 'set') return v.maxItems(field, max);
      return issue.inclusive === false ? v.below(field, max) : v.atMost(field, max);
    }
    case 'invalid_value':
      return v.oneOf(field, list((issue.values ?? []).map(show)));
    case 'invalid_union': {
      // A union of alternatives (a flag is a boolean or its form spellings): say what the first one expects.
      const expected = (issue.errors ?? []).flat().find((i) => i.code === 'invalid_type')?.expected;
      return expected && v.types[expected] ? v.type(field, v.types[expected]) : v.invalid(field);
    }
    case 'unrecognized_keys':
      return v.unknownKeys((issue.keys ?? []).join(', '));
    case 'invalid_format':
      return issue.format === 'email' ? v.email(field) : v.format(field);
    case 'not_multiple_of':
      return v.multipleOf(field, String(issue.divisor));
    default:
      return undefined;
  }
}

// zod hands each issue kind its own fields; Issue is the few of them read above. In the browser (schemas reach
// some pages' JS) zod must not compile parsers with new Function: the CSP forbids eval, and zod's probe for it
// alone is reported as a violation. Set before any schema is made, as zod decides when a schema is built.
z.config({
  ...z.locales.sv(),
  customError: (issue) => swedishMessage(issue),
  jitless: typeof window !== 'undefined',
});

export { z };

/** The largest id a row can have (PostgreSQL's integer): a larger one cannot exist, so it must never reach SQL. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * An id from a path, a query or a body: a positive whole number no larger than MAX_ROW_ID (docs/decisions/016). A
 * string is read as a number (a path or query parameter); `message` replaces every message, else zod's Swedish ones.
 */
export function rowId(message?: string) {
  const m = message === undefined ? undefined : { error: message };
  return z.coerce.number<string | number>(m).int(m).positive(m).max(MAX_ROW_ID, m);
}

/**
 * The most rows one list answer holds, and what a list gives when no limit is asked for: the largest page a screen
 * shows (/sims, the activity). A batch of tRPC calls (at most 10) is bounded by it too (docs/decisions/016).
 */
export const LIST_PAGE_MAX = 50;

/** The `limit` of every list: 1 to LIST_PAGE_MAX, LIST_PAGE_MAX when left out. */
export const listLimit = () =>
  z.coerce.number<string | number>().int().min(1).max(LIST_PAGE_MAX).default(LIST_PAGE_MAX);
