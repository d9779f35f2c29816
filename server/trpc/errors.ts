// The one translator, owned by the procedure layer (the application's boundary): a domain error becomes a tRPC
// code (toTRPCError, run by the base procedure's middleware in ./trpc.ts, so createCaller and every HTTP door see
// the same code), and anything thrown becomes an answer { status, body: { error, issues } } with Swedish text
// (httpError: the router's errorFormatter, and the HTTP doors through server/http/answer.ts). Library, driver and
// stack texts never reach a body: only our own messages are shown, everything else gets the Swedish text of its code.
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import { DEFAULT_BODY_LIMIT } from '#domain/limits.ts';
import { t } from '#domain/texts/common.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import {
  DomainError,
  errorBody,
  Invalid,
  issuesOf,
  StepUpRequired,
  type DomainErrorKind,
  type Issue,
} from '#domain/errors.ts';

export { errorBody, type Issue };

const codeOf: Record<DomainErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: 'BAD_REQUEST',
  conflict: 'CONFLICT',
  notFound: 'NOT_FOUND',
  forbidden: 'FORBIDDEN',
  unauthenticated: 'UNAUTHORIZED',
};

/** The Swedish text of a code, for a refusal that carries no message of ours. */
export function messageOf(code: string): string {
  if (code === 'UNAUTHORIZED') return t.errors.unauthenticated;
  if (code === 'FORBIDDEN') return t.errors.forbidden;
  if (code === 'PAYLOAD_TOO_LARGE') return t.refused.tooLarge(DEFAULT_BODY_LIMIT / 1024);
  return t.errors.byCode[code] ?? t.errors.byCode.INTERNAL_SERVER_ERROR;
}

/** The HTTP status of a tRPC code, as tRPC maps it; a wrong content type is a 400 here (our API always said so). */
export function statusOf(code: TRPC_ERROR_CODE_KEY): number {
  if (code === 'UNSUPPORTED_MEDIA_TYPE') return 400;
  return getHTTPStatusCodeFromError(new TRPCError({ code }));
}

function domainErrorIn(err: unknown): DomainError | null {
  if (err instanceof DomainError) return err;
  if (err instanceof TRPCError && err.cause instanceof DomainError) return err.cause;
  return null;
}

/**
 * A procedure's failure with the right code: a domain error gets its code and message, a refused input
 * (zod, from .input()) becomes an Invalid, so every field error reaches forms and doors as issues.
 */
export function toTRPCError(err: TRPCError): TRPCError {
  const domain = domainErrorIn(err);
  if (domain) return new TRPCError({ code: codeOf[domain.kind], message: domain.message, cause: domain });
  if (err.code === 'BAD_REQUEST' && err.cause instanceof ZodError) {
    const issues = issuesOf(err.cause);
    const invalid = new Invalid(issues[0]?.message || messageOf('BAD_REQUEST'), issues);
    return new TRPCError({ code: 'BAD_REQUEST', message: invalid.message, cause: invalid });
  }
  return err;
}

export type HttpError = {
  status: number;
  body: { error: string; issues: Issue[] } & Record<string, unknown>;
  headers: Record<string, string>;
  /** Not a refusal but a fault of ours (500): log it with its cause. */
  unexpected: boolean;
};

/**
 * Any thrown thing as an HTTP answer: a domain error (also inside a TRPCError), a TRPCError of a library
 * (its code's Swedish text), a ZodError, an unreachable database (503 with Retry-After), or anything else
 * (500). requestId goes into 500 and 503 bodies so a user can quote it.
 */
/** When to try again after a 503 of an unreachable database (Retry-After), on every door. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function httpError(err: unknown, requestId?: string): HttpError {
  const domain = domainErrorIn(err);
  if (domain) {
    const code = codeOf[domain.kind];
    // A missing step-up says so in the body, so a page or client can ask for the passkey and try again.
    const extra = domain instanceof StepUpRequired ? { stepUp: true } : {};
    return {
      status: statusOf(code),
      body: errorBody(domain.message, domain.issues, extra),
      headers: {},
      unexpected: false,
    };
  }
  const zod =
    err instanceof ZodError
      ? err
      : err instanceof TRPCError && err.code === 'BAD_REQUEST' && err.cause instanceof ZodError
        ? err.cause
        : null;
  if (zod) {
    const issues = issuesOf(zod);
    return {
      status: 400,
      body: errorBody(issues[0]?.message || messageOf('BAD_REQUEST'), issues),
      headers: {},
      unexpected: false,
    };
  }
  const withId = requestId ? { requestId } : {};
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      body: errorBody(t.errors.databaseDown, [], withId),
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      unexpected: false,
    };
  }
  if (err instanceof TRPCError && err.code !== 'INTERNAL_SERVER_ERROR') {
    const status = statusOf(err.code);
    if (status < 500) return { status, body: errorBody(messageOf(err.code)), headers: {}, unexpected: false };
  }
  return {
    status: 500,
    body: errorBody(messageOf('INTERNAL_SERVER_ERROR'), [], withId),
    headers: {},
    unexpected: true,
  };
}
