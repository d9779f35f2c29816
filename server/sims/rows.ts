// A SIM as the reads answer it: the list, the detail view and the API read plain SQL shaped like the answer
// (hydrating 50 entities cost more than the query itself); these are its columns, its row and its view.
import type { z } from 'zod';
import type { simDetailOutput, simOutput } from '#domain/sims/schemas.ts';
import { stateOf } from '#domain/sims/pause.ts';

/**
 * A timestamptz as JavaScript's toISOString writes it (UTC, milliseconds), made by PostgreSQL: the list and the
 * API answer it as text, with no Date made and printed per row (the bulk events' data uses it too).
 */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The columns of a SIM row (SimRow), from `sim s` joined with its `rate_plan r`. */
export const SIM_COLUMNS = `s.id, s.iccid, s.invoice_line_mark, s.invoice_line_note, s.status,
  ${isoSql('s.activated_at')} as activated_at, ${isoSql('s.paused_at')} as paused_at, r.id as plan_id, r.code, r.description, r.data_limit, r.call, r.sms, r.roaming, r.is_legacy`;

/** A SIM row as SIM_COLUMNS selects it (the load benchmark's baseline maps its rows with simView too). */
export type SimRow = {
  id: number;
  iccid: string;
  invoice_line_mark: string;
  invoice_line_note: string;
  status: 'active' | 'deactivated';
  /** ISO 8601 (isoSql). */
  activated_at: string;
  /** ISO 8601 (isoSql), or null: not paused. */
  paused_at: string | null;
  plan_id: number;
  code: string;
  description: string;
  data_limit: number;
  call: boolean;
  sms: boolean;
  roaming: boolean;
  is_legacy: boolean;
};

export type SimView = z.infer<typeof simOutput>;
export type SimDetailView = z.infer<typeof simDetailOutput>;

export const simView = (r: SimRow): SimView => ({
  id: r.id,
  iccid: r.iccid,
  invoiceLineMark: r.invoice_line_mark,
  invoiceLineNote: r.invoice_line_note,
  status: stateOf(r.status, r.paused_at),
  activatedAt: r.activated_at,
  pausedAt: r.status === 'active' ? r.paused_at : null,
  ratePlan: {
    id: r.plan_id,
    code: r.code,
    description: r.description,
    dataLimit: r.data_limit,
    call: r.call,
    sms: r.sms,
    roaming: r.roaming,
    isLegacy: r.is_legacy,
  },
});
