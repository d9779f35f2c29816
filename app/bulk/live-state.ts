// The state of /add/bulk's live view (app/components/bulk/BulkLive.tsx) as one reducer: what the slot below the
// form shows (nothing, a message, the live preview, or a run in chunks), whether a preview is on its way, the
// network, the "send now?" prompt when it is back, and how many scanned codes wait in the offline queue.
// Every async answer carries the ticket of the request it answers: a newer request (or a form post, or an
// emptied list) takes a new ticket, and an answer with an old one changes nothing. Pure: the unit tests drive it.
import type { BulkActivateOutput } from '#domain/sims/schemas.ts';
import { splitTags } from '#domain/sims/tag-text.ts';
import type { Values } from './page-values.ts';
import type { BulkRow } from './run.ts';

export type Plan = {
  dataLimit: number;
  callAndSms: boolean;
  roaming: boolean;
  invoiceLineMark: string;
  invoiceLineNote: string;
  /** The list's tags, as the field's text splits them (the procedure checks them). */
  tags: string[];
};

export type RunState = 'running' | 'stopped' | 'finished';
export type View =
  | { kind: 'idle' }
  | { kind: 'message'; text: string }
  | { kind: 'preview'; list: string[]; plan: Plan; answer: BulkActivateOutput }
  | { kind: 'run'; plan: Plan; rows: BulkRow[]; state: RunState; problem?: string };

export type LiveState = {
  view: View;
  /** A preview is on its way (the shown one is about to be replaced). */
  updating: boolean;
  offline: boolean;
  /** The network came back with a list on the page: ask before sending anything. */
  backPrompt: boolean;
  /** Scanned codes in the offline queue. */
  waiting: number;
  /** The request whose answer counts; any other answer is stale. */
  ticket: number;
};

export const initialLiveState: LiveState = {
  view: { kind: 'idle' },
  updating: false,
  offline: false,
  backPrompt: false,
  waiting: 0,
  ticket: 0,
};

export type LiveAction =
  /** The queue as stored now. */
  | { type: 'queued'; waiting: number }
  /** A new preview request: nothing to ask for (an empty list, a chosen file), a message, or asking. */
  | { type: 'nothing'; ticket: number }
  | { type: 'message'; ticket: number; text: string }
  | { type: 'asking'; ticket: number }
  /** The answer to the request with this ticket. */
  | { type: 'previewed'; ticket: number; list: string[]; plan: Plan; answer: BulkActivateOutput }
  | { type: 'refused'; ticket: number; text: string }
  | { type: 'unreachable'; ticket: number }
  /** The browser's network: gone, or back (`listed`: the list holds codes, so the page asks first). */
  | { type: 'offline' }
  | { type: 'online'; listed: boolean }
  /** "Skicka": the prompt goes, a preview follows. */
  | { type: 'send' }
  /** A form post of the page takes over: pending previews are dropped; a running run goes on. */
  | { type: 'posted'; ticket: number }
  /** "Töm listan": list and queue emptied. */
  | { type: 'emptied'; ticket: number }
  /** The activation in chunks: started (or resumed), a chunk answered, cut off, or done. */
  | { type: 'run'; ticket: number; plan: Plan; rows: BulkRow[] }
  | { type: 'chunk'; rows: BulkRow[] }
  | { type: 'stopped'; rows: BulkRow[]; problem?: string }
  | { type: 'finished'; rows: BulkRow[] };

export const isRunning = (view: View) => view.kind === 'run' && view.state === 'running';

/** Whether a new preview may start: never over a running activation (its progress is the view). */
export const canPreview = (state: LiveState) => !isRunning(state.view);

function runWith(state: LiveState, rows: BulkRow[], runState: RunState, problem?: string): LiveState {
  if (state.view.kind !== 'run') return state;
  return { ...state, view: { kind: 'run', plan: state.view.plan, rows, state: runState, problem } };
}

export function liveReducer(state: LiveState, action: LiveAction): LiveState {
  switch (action.type) {
    case 'queued':
      return state.waiting === action.waiting ? state : { ...state, waiting: action.waiting };
    case 'nothing':
      if (!canPreview(state)) return state;
      return { ...state, ticket: action.ticket, updating: false, view: { kind: 'idle' } };
    case 'message':
      if (!canPreview(state)) return state;
      return { ...state, ticket: action.ticket, updating: false, view: { kind: 'message', text: action.text } };
    case 'asking':
      if (!canPreview(state)) return state;
      return { ...state, ticket: action.ticket, updating: true };
    case 'previewed':
      if (action.ticket !== state.ticket) return state;
      return {
        ...state,
        updating: false,
        offline: false,
        view: { kind: 'preview', list: action.list, plan: action.plan, answer: action.answer },
      };
    case 'refused':
      if (action.ticket !== state.ticket) return state;
      return { ...state, updating: false, view: { kind: 'message', text: action.text } };
    case 'unreachable':
      if (action.ticket !== state.ticket) return state;
      return { ...state, updating: false, offline: true };
    case 'offline':
      return { ...state, updating: false, offline: true, backPrompt: false };
    case 'online':
      return { ...state, offline: false, backPrompt: action.listed };
    case 'send':
      return { ...state, backPrompt: false };
    case 'posted':
      return {
        ...state,
        ticket: action.ticket,
        updating: false,
        view: isRunning(state.view) ? state.view : { kind: 'idle' },
      };
    case 'emptied':
      return {
        ...state,
        ticket: action.ticket,
        waiting: 0,
        backPrompt: false,
        updating: false,
        view: { kind: 'idle' },
      };
    case 'run':
      return {
        ...state,
        ticket: action.ticket,
        updating: false,
        view: { kind: 'run', plan: action.plan, rows: action.rows, state: 'running' },
      };
    case 'chunk':
      return runWith(state, action.rows, 'running');
    case 'stopped':
      return runWith(state, action.rows, 'stopped', action.problem);
    case 'finished':
      return runWith(state, action.rows, 'finished');
  }
}

/** The plan a page's preview carried (its hidden fields' values), for the live run of its "Aktivera N SIM-kort". */
export function planOfValues(
  v: Pick<Values, 'dataLimit' | 'callAndSms' | 'roaming' | 'invoiceLineMark' | 'invoiceLineNote' | 'tags'>,
): Plan {
  return {
    // An empty choice is 0, which the schema refuses with its own message (shown as the preview's note).
    dataLimit: Number(v.dataLimit) || 0,
    callAndSms: v.callAndSms,
    roaming: v.roaming,
    invoiceLineMark: v.invoiceLineMark,
    invoiceLineNote: v.invoiceLineNote,
    tags: splitTags(v.tags),
  };
}

/** The plan as the form holds it, and whether a file was chosen (the list itself is React state: BulkForm). */
export function readPlan(data: FormData): { plan: Plan; fileChosen: boolean } {
  const str = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return {
    plan: planOfValues({
      dataLimit: str('dataLimit'),
      callAndSms: data.get('callAndSms') != null,
      roaming: data.get('roaming') != null,
      invoiceLineMark: str('invoiceLineMark'),
      invoiceLineNote: str('invoiceLineNote'),
      tags: str('tags'),
    }),
    // A named file field holding a file (the scanner's photo field has no name, so it is not in the form data).
    fileChosen: [...data.values()].some((v) => typeof v !== 'string' && (v.size > 0 || v.name !== '')),
  };
}
