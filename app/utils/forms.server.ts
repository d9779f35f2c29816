import { TRPCError } from '@trpc/server';
import { DomainError, StepUpRequired, type Issue } from '#domain/errors.ts';
import { MAX_ROW_ID } from '#domain/zod.ts';
import { FORM_ERROR } from './forms.ts';

export { FORM_ERROR };

// Turning a procedure's refusal into what a form shows: a message per field from its issues (the one
// encoding of field errors, domain/errors.ts) and whether it was a refusal at all. The procedures' classes are
// the pages' classes (one copy of each module in the process, vite.config.ts), so a refusal is known by instanceof:
// a TRPCError whose cause is the domain error (server/trpc/errors.ts).
export type ProcedureProblem = {
  code: TRPCError['code'];
  message: string;
  issues: Issue[];
  fields: Record<string, string>;
  /** A sensitive change refused for want of a recent passkey use: the form says so (the message) and can be sent again. */
  stepUp: boolean;
};

export function procedureProblem(err: unknown): ProcedureProblem | null {
  if (!(err instanceof TRPCError)) return null;
  const issues = err.cause instanceof DomainError ? err.cause.issues : [];
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (key && issue.message && !fields[key]) fields[key] = issue.message;
  }
  const stepUp = err.cause instanceof StepUpRequired;
  return { code: err.code, message: err.message, issues, fields, stepUp };
}

/**
 * Calls a procedure; a refusal for bad input (400, 409) comes back as field messages, and so does a missing step-up
 * (under FORM_ERROR: the form shows why and keeps what was typed); anything else is thrown.
 */
export async function attempt<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; fields: Record<string, string>; stepUp?: boolean }> {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    const problem = procedureProblem(err);
    if (problem && (problem.code === 'BAD_REQUEST' || problem.code === 'CONFLICT' || problem.stepUp)) {
      // A refusal that names no field (e.g. a legacy SIM) is shown for the whole form under FORM_ERROR.
      const fields = Object.keys(problem.fields).length ? problem.fields : { [FORM_ERROR]: problem.message };
      // stepUp: the page may send the form's values back through the step-up (app/utils/step-up.ts, the draft).
      return { ok: false, fields, stepUp: problem.stepUp };
    }
    if (problem?.code === 'NOT_FOUND') throw new Response('Not Found', { status: 404 });
    if (problem?.code === 'FORBIDDEN') throw new Response('Forbidden', { status: 403 });
    throw err;
  }
}

/** In a loader: a refused read becomes the 404 or 403 page; anything else is rethrown. */
export function pageError(err: unknown): never {
  const problem = procedureProblem(err);
  if (problem?.code === 'NOT_FOUND') throw new Response('Not Found', { status: 404 });
  if (problem?.code === 'FORBIDDEN') throw new Response('Forbidden', { status: 403 });
  throw err;
}

export function formText(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
}

/** A positive whole number from a URL segment that a row can have as its id, or a 404 page (no such row). */
export function idParam(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ROW_ID)
    throw new Response('Not Found', { status: 404 });
  return Number(value);
}
