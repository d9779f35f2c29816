// The browser's door to the passkey ceremonies (POST /auth/passkey/options and /auth/passkey/verify): JSON in,
// JSON out, through the passkey procedures. A refusal is `{ error, issues }` with its status, and `stepUp: true`
// when a sensitive change needs a passkey use first. The signed-out browser's binding cookie is read here.
import type { AppLoadContext } from '@remix-run/node';
import { readBindingCookie } from '#server/auth/passkeys.ts';
import type { z } from 'zod';
import {
  CEREMONY_PURPOSES,
  type authenticationResponse,
  type CeremonyPurpose,
  type registrationResponse,
} from '#domain/auth/passkeys.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { procedureHeaders } from './http.server.ts';
import { procedureProblem } from './forms.server.ts';

const STATUS: Record<string, number> = { BAD_REQUEST: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404 };

function refusal(error: string, status: number, extra: Record<string, unknown> = {}) {
  return Response.json({ error, issues: [], ...extra }, { status });
}

async function readBody(request: Request): Promise<{ purpose: CeremonyPurpose; body: Record<string, unknown> } | null> {
  if (request.method !== 'POST') return null;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const purpose = (body as { purpose?: unknown }).purpose;
  if (!CEREMONY_PURPOSES.includes(purpose as CeremonyPurpose)) return null;
  return { purpose: purpose as CeremonyPurpose, body: body as Record<string, unknown> };
}

async function answer(context: AppLoadContext, call: () => Promise<unknown>): Promise<Response> {
  try {
    const value = await call();
    return Response.json(value, { headers: procedureHeaders(context, { 'Cache-Control': 'no-store' }) });
  } catch (err) {
    const problem = procedureProblem(err);
    if (!problem) throw err;
    return refusal(problem.message, STATUS[problem.code] ?? 400, problem.stepUp ? { stepUp: true } : {});
  }
}

/** POST /auth/passkey/options: the options of one ceremony, its challenge stored and bound. */
export async function passkeyOptions(request: Request, context: AppLoadContext): Promise<Response> {
  const read = await readBody(request);
  if (!read) return refusal(tSecurity.passkeys.failed, 400);
  const p = context.trpc.passkeys;
  return answer(context, () => {
    switch (read.purpose) {
      case 'register':
        return p.registrationOptions();
      case 'signIn':
        return p.signInOptions();
      case 'secondFactor':
        return p.secondFactorOptions();
      case 'stepUp':
        return p.stepUpOptions();
    }
  });
}

/** POST /auth/passkey/verify: the browser's answer to the ceremony. */
export async function passkeyVerify(request: Request, context: AppLoadContext): Promise<Response> {
  const read = await readBody(request);
  if (!read) return refusal(tSecurity.passkeys.failed, 400);
  const p = context.trpc.passkeys;
  // The procedures' schemas check the answer's shape; the door passes it on as it came.
  const raw = read.body.response;
  const registration = raw as z.input<typeof registrationResponse>;
  const response = raw as z.input<typeof authenticationResponse>;
  return answer(context, () => {
    switch (read.purpose) {
      case 'register':
        return p.register({ response: registration, name: typeof read.body.name === 'string' ? read.body.name : '' });
      case 'signIn':
        return p.signIn({ response, binding: readBindingCookie(request.headers.get('cookie')) ?? '' });
      case 'secondFactor':
        return p.secondFactor({ response });
      case 'stepUp':
        return p.stepUp({ response });
    }
  });
}
