// /add/bulk with JavaScript: the plumbing of the live view (BulkLive.tsx shows it). The state is one reducer
// (app/bulk/live-state.ts); this hook holds the list text the form's field shows, and does the effects:
// - the offline queue: scanned ICCIDs go to localStorage (app/bulk/queue.ts) the moment they are scanned and
//   come back into the list on load; with no network the page says how many wait, and when the network is
//   back it asks before it sends anything;
// - the live preview: as the list or the plan changes, sim.bulkActivate with dryRun (debounced; an answer to
//   an older request is dropped by its ticket), so "Aktivera N SIM-kort" can be pressed at once;
// - the activation in chunks with progress (app/bulk/run.ts), a cut-off run resumable with "Försök igen",
//   and one summary toast for the run.
import { useActionData, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { canPreview, initialLiveState, liveReducer, readPlan, type Plan } from '#app/bulk/live-state.ts';
import {
  addToQueue,
  browserStorage,
  clearQueue,
  mergeIntoList,
  QUEUE_MAX,
  readQueue,
  removeFromQueue,
  splitList,
} from '#app/bulk/queue.ts';
import { activatedIds, answered, applyChunk, nextChunk, type BulkRow } from '#app/bulk/run.ts';
import { addToList } from '#app/scanner/machine.ts';
import { defined } from '#domain/defined.ts';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';
import type { ScanAnswer } from './BulkScan.tsx';

const DEBOUNCE_MS = 400;

type TrpcError = { data?: { issues?: { message: string }[] } | null; message?: string };
/** No answer at all (the network, not the server): tRPC's error then carries no data. */
const isNetworkError = (err: unknown) => !(err as TrpcError | null)?.data;

const loadClient = () => import('#app/utils/trpc.client.ts').then((m) => m.trpc);

type Options = {
  /** Whose queue: a value the loader gives (user and acting company), so another user never sees it. */
  owner: string;
  /** The page's form: the plan is read from it when a preview is asked for. */
  formRef: RefObject<HTMLFormElement>;
  /** The list's field: "Töm listan" puts the focus there. */
  fieldRef: RefObject<HTMLTextAreaElement>;
  /** The list as the server sent it back ('' on a new page). */
  initialList: string;
};

export function useBulkLive({ owner, formRef, fieldRef, initialList }: Options) {
  const [hydrated, setHydrated] = useState(false);
  const [state, dispatch] = useReducer(liveReducer, initialLiveState);
  const [list, setListState] = useState(initialList);
  // Read by callbacks that run later (a debounce, an answer): the latest list and state, not a render's.
  const listRef = useRef(list);
  const stateRef = useRef(state);
  stateRef.current = state;
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const tickets = useRef(0);
  const submitting = useNavigation().state !== 'idle';
  const actionData = useActionData<{ step?: string; values?: { iccids?: string } }>();
  const answeredAtMount = useRef(actionData !== undefined);

  const setList = useCallback((text: string) => {
    listRef.current = text;
    setListState(text);
  }, []);
  const refreshWaiting = useCallback(
    () => dispatch({ type: 'queued', waiting: readQueue(browserStorage(), owner).length }),
    [owner],
  );
  /** Drops whatever is pending: the debounce, and (by a new ticket) any answer on its way. */
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    return ++tickets.current;
  }, []);

  /** The live preview of the form as it is now: after a pause in typing, or at once. */
  const preview = useCallback(
    (when: 'debounced' | 'now') => {
      clearTimeout(timer.current);
      const run = async () => {
        const form = formRef.current;
        if (!form || !canPreview(stateRef.current)) return;
        const ticket = ++tickets.current;
        const iccids = splitList(listRef.current);
        const { plan, fileChosen } = readPlan(new FormData(form));
        // A chosen file goes through the page's own form (its preview reads the file on the server).
        if (iccids.length === 0 || fileChosen) return dispatch({ type: 'nothing', ticket });
        if (iccids.length > QUEUE_MAX)
          return dispatch({ type: 'message', ticket, text: tBulkScan.tooMany(iccids.length, QUEUE_MAX) });
        if (!navigator.onLine) return dispatch({ type: 'offline' });
        dispatch({ type: 'asking', ticket });
        try {
          const trpc = await loadClient();
          const answer = await trpc.sim.bulkActivate.mutate({ iccids, ...plan, dryRun: true });
          dispatch({ type: 'previewed', ticket, list: iccids, plan, answer });
        } catch (err) {
          if (isNetworkError(err)) return dispatch({ type: 'unreachable', ticket });
          const e = err as TrpcError;
          const issues = e.data?.issues?.map((i) => i.message) ?? [];
          dispatch({ type: 'refused', ticket, text: issues.length ? issues.join(' ') : e.message || tBulkScan.failed });
        }
      };
      if (when === 'now') void run();
      else timer.current = setTimeout(() => void run(), DEBOUNCE_MS);
    },
    [formRef],
  );

  // Hydrated: restore the queue into the list, load the tRPC client while the network is there.
  useEffect(() => {
    setHydrated(true);
    void loadClient().catch(() => undefined);
    const queue = readQueue(browserStorage(), owner);
    if (queue.length > 0) {
      setList(mergeIntoList(listRef.current, queue));
      // Right after the page's own answer (the form is made anew for it) that answer is the preview.
      if (!navigator.onLine) dispatch({ type: 'offline' });
      else if (!answeredAtMount.current) preview('now');
    }
    dispatch({ type: 'queued', waiting: queue.length });
    return () => clearTimeout(timer.current);
  }, [owner, preview, setList]);

  // The network: gone, the page says what waits; back, it asks before it sends anything.
  useEffect(() => {
    const goneOff = () => {
      clearTimeout(timer.current);
      dispatch({ type: 'offline' });
    };
    const backOn = () => dispatch({ type: 'online', listed: splitList(listRef.current).length > 0 });
    if (!navigator.onLine) dispatch({ type: 'offline' });
    window.addEventListener('offline', goneOff);
    window.addEventListener('online', backOn);
    window.addEventListener('storage', refreshWaiting);
    return () => {
      window.removeEventListener('offline', goneOff);
      window.removeEventListener('online', backOn);
      window.removeEventListener('storage', refreshWaiting);
    };
  }, [refreshWaiting]);

  // A form post of the page (its own preview or activation) takes over: the live view steps aside.
  useEffect(() => {
    if (submitting) dispatch({ type: 'posted', ticket: cancel() });
  }, [submitting, cancel]);

  // The page's own activation (the plain form, with JS too) answers rows: those leave the queue.
  useEffect(() => {
    // Every row of the posted list has its outcome in the result (the page lists only some of a long one).
    if (actionData?.step === 'result' && actionData.values) {
      removeFromQueue(browserStorage(), owner, splitList(actionData.values.iccids ?? ''));
      refreshWaiting();
    }
  }, [actionData, owner, refreshWaiting]);

  /** The user's own edit of the list: a scanned code they deleted leaves the queue too. */
  const listEdited = (text: string) => {
    setList(text);
    const present = new Set(splitList(text));
    const gone = readQueue(browserStorage(), owner).filter((c) => !present.has(c));
    if (gone.length) removeFromQueue(browserStorage(), owner, gone);
    refreshWaiting();
  };

  /**
   * Every change of the form (typing, pasting, a file, the plan) asks for a new preview. An event of something
   * else (the preview's own "Visa bara problem", whose events reach the list's handlers through React's portal)
   * does not: only a field whose form is the page's form counts.
   */
  const formChanged = (event?: { target: EventTarget }) => {
    if (event && (event.target as { form?: HTMLFormElement | null }).form !== formRef.current) return;
    if (!stateRef.current.backPrompt) preview('debounced');
  };

  /** A scanned code into the list (and the queue), unless the list holds it. */
  const onCode = (iccid: string): ScanAnswer => {
    if (addToList(splitList(listRef.current), iccid).kind === 'repeat') return 'repeat';
    addToQueue(browserStorage(), owner, [iccid]);
    refreshWaiting();
    setList(mergeIntoList(listRef.current, [iccid]));
    formChanged();
    return 'added';
  };

  /** "Töm listan": the list, the queue and the live view emptied. */
  const clear = () => {
    setList('');
    clearQueue(browserStorage(), owner);
    dispatch({ type: 'emptied', ticket: cancel() });
    fieldRef.current?.focus();
  };

  /** The prompt's "Skicka": the waiting list is previewed now. */
  const send = () => {
    dispatch({ type: 'send' });
    preview('now');
  };

  /** Activates the rows still pending, CHUNK_SIZE at a time, one call after another. */
  const activate = async (rows: BulkRow[], plan: Plan) => {
    dispatch({ type: 'run', ticket: cancel(), plan, rows });
    let current = rows;
    try {
      const trpc = await loadClient();
      for (let chunk = nextChunk(current); chunk.length > 0; chunk = nextChunk(current)) {
        const answer = await trpc.sim.bulkActivateChunk.mutate({
          iccids: chunk.map((i) => defined(current[i], `row ${i} of the list`).iccid),
          ...plan,
          dryRun: false,
        });
        current = applyChunk(current, chunk, answer.results);
        removeFromQueue(browserStorage(), owner, answered(current));
        refreshWaiting();
        dispatch({ type: 'chunk', rows: current });
      }
    } catch (err) {
      if (isNetworkError(err) && !navigator.onLine) dispatch({ type: 'offline' });
      const problem = isNetworkError(err) ? undefined : (err as TrpcError).message || tBulkScan.failed;
      dispatch({ type: 'stopped', rows: current, problem });
      return;
    }
    dispatch({ type: 'finished', rows: current });
    try {
      const trpc = await loadClient();
      await trpc.sim.bulkActivateSummary.mutate({ simIds: activatedIds(current), total: current.length });
    } catch {
      // The toast is a courtesy: the result is on the page.
    }
  };

  return {
    hydrated,
    state,
    submitting,
    list,
    /** How many ICCIDs the list holds. */
    listSize: splitList(list).length,
    listEdited,
    formChanged,
    onCode,
    clear,
    send,
    activate,
    again: () => preview('now'),
  };
}

export type BulkLiveHandle = ReturnType<typeof useBulkLive>;
