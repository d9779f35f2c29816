// What a procedure declares about a call, besides its REST path (trpc-to-openapi's `openapi`), in `.meta()` or
// through its kind (server/trpc/trpc.ts): everything a call needs to be allowed and done once, read by the
// procedures' middleware and by the doors, which no longer decide it from a URL (decision 032).
import type { OpenApiMeta } from 'trpc-to-openapi';

/** The API-key scope a procedure takes: read (the company's data), write (its SIMs' changes); null: no key. */
export type KeyScope = 'read' | 'write';

export type ProcedureMeta = OpenApiMeta & {
  /**
   * The API-key scope the procedure needs, set by its kind: companyProcedure read, companyWriteProcedure write
   * (a read key, a viewer: 403). Absent: no API key at all (a person's procedures, the admin).
   */
  keyScope?: KeyScope;
  /** The operator's network's procedure: a network integration key only (networkProcedure; decision 034). */
  networkKey?: boolean;
  /** A sensitive change: a passkey use within the last 10 minutes (403 with `stepUp: true`; decision 026). */
  stepUp?: boolean;
  /**
   * What a call costs the caller's and the company's budgets (decision 030): 1, or the length of the first of
   * these input lists it has (a bulk call weighs its rows).
   */
  weighs?: readonly string[];
  /** A write that takes an `Idempotency-Key`: a retry with the same key gets the first answer (decision 028). */
  idempotent?: boolean;
};

/** The API-key scope of a procedure's meta: null when it takes no key. */
export const keyScopeOf = (meta: ProcedureMeta | undefined): KeyScope | null => meta?.keyScope ?? null;

/** What a call with this input costs, by its procedure's meta: at least 1. */
export function weightOf(meta: ProcedureMeta | undefined, input: unknown): number {
  if (!meta?.weighs || !input || typeof input !== 'object') return 1;
  const fields = input as Record<string, unknown>;
  const list = meta.weighs.map((name) => fields[name]).find(Array.isArray);
  return Math.max(1, list?.length ?? 1);
}

/** A built procedure's meta (tRPC types it unknown on the procedure; initTRPC in trpc.ts makes it ProcedureMeta). */
export const metaOf = (procedure: { _def: { meta?: unknown } }): ProcedureMeta =>
  (procedure._def.meta ?? {}) as ProcedureMeta;
