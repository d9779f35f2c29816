// Errors that belong to one input field (a taken customer number or e-mail, a refused flag). The cause carries
// a zod-style issue with the field's path, so forms show the message next to the field and the API answers
// with the same { error, issues } shape as for any other bad input.
import { TRPCError } from '@trpc/server';
import { ZodRealError } from 'zod';

export function fieldError(code: 'BAD_REQUEST' | 'CONFLICT', field: string, message: string): TRPCError {
  return new TRPCError({ code, message, cause: new ZodRealError([{ code: 'custom', path: [field], message, input: undefined }]) });
}

export function notFound(message: string): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message });
}

/** Makes a search text safe inside ILIKE '%...%' (the user's % and _ match themselves). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
