// The errors services throw: what went wrong in the product's terms, never an HTTP status or a tRPC code
// (server/trpc/errors.ts translates). A field error is always an issue { path, message }, so forms, the
// API and tests read one encoding. Pure (only the texts), so app/ may import it too.

/** One refused value: the path of the field in the input and a Swedish message for the user. */
export type Issue = { path: string[]; message: string };

export type DomainErrorKind = 'invalid' | 'conflict' | 'notFound' | 'forbidden' | 'unauthenticated';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** The fields concerned; empty when the refusal is about the whole request. */
  readonly issues: Issue[];

  constructor(message: string, issues: Issue[] = []) {
    super(message);
    this.name = new.target.name;
    this.issues = issues;
  }
}

const onField = (field: string | undefined, message: string): Issue[] => (field ? [{ path: [field], message }] : []);

/** The input breaks a rule (the message of the first issue is the error's). */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
  static field(field: string, message: string): Invalid {
    return new Invalid(message, onField(field, message));
  }
}

/** The input is well-formed but clashes with what is stored (a taken e-mail, a legacy SIM); optionally on one field. */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
  constructor(message: string, field?: string) {
    super(message, onField(field, message));
  }
}

/** The thing does not exist, or not for this caller (the two are not told apart). */
export class NotFound extends DomainError {
  readonly kind = 'notFound';
}

/** The caller is known but may not do this. */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

/** A sensitive change without a recent passkey use (step-up) of the session. */
export class StepUpRequired extends Forbidden {
  readonly stepUp = true;
}

/** No one is logged in. */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}

/** The answer body of every refusal, at every door: issues always present ([] when none). */
export function errorBody(
  error: string,
  issues: Issue[] = [],
  extra: Record<string, unknown> = {},
): { error: string; issues: Issue[] } & Record<string, unknown> {
  return { error, issues, ...extra };
}

/**
 * The issues of a thrown value in the one encoding: the error's own issues or its cause's (a tRPC error wrapping a
 * domain error). Read by shape so that zod's errors (their issues' paths hold numbers too) are read the same way.
 */
export function issuesOf(err: unknown): Issue[] {
  for (const e of [err, (err as { cause?: unknown } | null)?.cause]) {
    const raw = (e as { issues?: unknown } | null | undefined)?.issues;
    if (Array.isArray(raw)) {
      return (raw as Array<{ path?: unknown[]; message?: unknown }>).map((i) => ({
        path: (i.path ?? []).map(String),
        message: typeof i.message === 'string' ? i.message : '',
      }));
    }
  }
  return [];
}
