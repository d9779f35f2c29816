// /add/bulk with JavaScript (issue 15). Mounted inside the page's form, under the list; without JS it renders
// nothing and the page is the plain three-step form. With JS:
// - continuous scanning into the list (BulkScan; the scanner code loads on the press);
// - the offline queue: scanned ICCIDs go to localStorage (app/bulk/queue.ts) the moment they are scanned and
//   come back into the list on load; with no network the page says how many wait, and when the network is
//   back it asks before it sends anything;
// - the live preview: as the list or the plan changes, sim.bulkActivate with dryRun (debounced, stale answers
//   dropped), shown in the page's slot below the form, so "Aktivera N SIM-kort" can be pressed at once;
// - the activation in chunks with progress (app/bulk/run.ts), a cut-off run resumable with "Försök igen",
//   and one summary toast for the run.
import { useActionData, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
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
import {
  activatedIds,
  answered,
  applyChunk,
  countRows,
  nextChunk,
  shownRows,
  startRows,
  type BulkRow,
} from '#app/bulk/run.ts';
import { addToList } from '#app/scanner/machine.ts';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import type { BulkActivateOutput } from '#domain/sims/schemas.ts';
import { BulkCounts, BulkRows } from './BulkOutcome.tsx';
import { BulkScan, type ScanAnswer } from './BulkScan.tsx';

/** The id of the element below the form that shows the live preview, progress and result. */
export const BULK_LIVE_SLOT = 'bulk-live';
const DEBOUNCE_MS = 400;

type Plan = {
  dataLimit: number;
  callAndSms: boolean;
  roaming: boolean;
  invoiceLineMark: string;
  invoiceLineNote: string;
};
type RunState = 'running' | 'stopped' | 'finished';
type View =
  | { kind: 'idle' }
  | { kind: 'message'; text: string }
  | { kind: 'preview'; list: string[]; plan: Plan; answer: BulkActivateOutput }
  | { kind: 'run'; plan: Plan; rows: BulkRow[]; state: RunState; problem?: string };

type Props = {
  /** Whose queue: a value the loader gives (user and acting company), so another user never sees it. */
  owner: string;
  /** Told whether the live view shows something, so the page hides its own (older) preview or result. */
  onActive: (active: boolean) => void;
};

type TrpcError = { data?: { issues?: { message: string }[] } | null; message?: string };
/** No answer at all (the network, not the server): tRPC's error then carries no data. */
const isNetworkError = (err: unknown) => !(err as TrpcError | null)?.data;

const loadClient = () => import('#app/utils/trpc.client.ts').then((m) => m.trpc);

function readForm(form: HTMLFormElement): { text: string; list: string[]; plan: Plan } {
  const data = new FormData(form);
  const text = String(data.get('iccids') ?? '');
  const str = (name: string) => String(data.get(name) ?? '');
  return {
    text,
    list: splitList(text),
    plan: {
      // An empty choice is 0, which the schema refuses with its own message (shown as the preview's note).
      dataLimit: Number(str('dataLimit')) || 0,
      callAndSms: data.get('callAndSms') != null,
      roaming: data.get('roaming') != null,
      invoiceLineMark: str('invoiceLineMark'),
      invoiceLineNote: str('invoiceLineNote'),
    },
  };
}

/** Whether a named file field of the form holds a file (the scanner's photo field has no name). */
const fileChosen = (form: HTMLFormElement) =>
  [...form.querySelectorAll<HTMLInputElement>('input[type=file][name]')].some((i) => (i.files?.length ?? 0) > 0);

export function BulkLive({ owner, onActive }: Props) {
  const [hydrated, setHydrated] = useState(false);
  const [view, setView] = useState<View>({ kind: 'idle' });
  const [updating, setUpdating] = useState(false);
  const [offline, setOffline] = useState(false);
  const [backPrompt, setBackPrompt] = useState(false);
  const [waiting, setWaiting] = useState(0);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const [listSize, setListSize] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const ticket = useRef(0);
  const viewRef = useRef(view);
  viewRef.current = view;
  const backRef = useRef(backPrompt);
  backRef.current = backPrompt;
  const submitting = useNavigation().state !== 'idle';
  const actionData = useActionData() as { step?: string; values?: { iccids?: string } } | undefined;
  const answeredAtMount = useRef(actionData !== undefined);

  const form = () => rootRef.current?.closest('form') ?? null;
  const listField = () => (form()?.elements.namedItem('iccids') as HTMLTextAreaElement | null) ?? null;

  const refreshWaiting = useCallback(() => setWaiting(readQueue(browserStorage(), owner).length), [owner]);

  /** The live preview of the form as it is now: after a pause in typing, or at once. */
  const preview = useCallback((when: 'debounced' | 'now') => {
    clearTimeout(timer.current);
    const run = async () => {
      const f = rootRef.current?.closest('form');
      if (!f || (viewRef.current.kind === 'run' && viewRef.current.state === 'running')) return;
      const mine = ++ticket.current;
      const { list, plan } = readForm(f);
      // A chosen file goes through the page's own form (its preview reads the file on the server).
      if (list.length === 0 || fileChosen(f)) {
        setUpdating(false);
        return setView({ kind: 'idle' });
      }
      if (list.length > QUEUE_MAX) {
        setUpdating(false);
        return setView({ kind: 'message', text: tBulkScan.tooMany(list.length, QUEUE_MAX) });
      }
      if (!navigator.onLine) {
        setUpdating(false);
        return setOffline(true);
      }
      setUpdating(true);
      try {
        const trpc = await loadClient();
        const answer = await trpc.sim.bulkActivate.mutate({ iccids: list, ...plan, dryRun: true });
        if (mine !== ticket.current) return;
        setOffline(false);
        setView({ kind: 'preview', list, plan, answer });
      } catch (err) {
        if (mine !== ticket.current) return;
        if (isNetworkError(err)) {
          setOffline(true);
          return;
        }
        const e = err as TrpcError;
        const issues = e.data?.issues?.map((i) => i.message) ?? [];
        setView({ kind: 'message', text: issues.length ? issues.join(' ') : e.message || tBulkScan.failed });
      } finally {
        if (mine === ticket.current) setUpdating(false);
      }
    };
    if (when === 'now') void run();
    else timer.current = setTimeout(() => void run(), DEBOUNCE_MS);
  }, []);

  // Hydrated: restore the queue into the list, load the tRPC client while the network is there, find the slot.
  useEffect(() => {
    setHydrated(true);
    setSlot(document.getElementById(BULK_LIVE_SLOT));
    void loadClient().catch(() => undefined);
    const queue = readQueue(browserStorage(), owner);
    const field = rootRef.current?.closest('form')?.elements.namedItem('iccids') as HTMLTextAreaElement | null;
    if (queue.length > 0 && field) {
      field.value = mergeIntoList(field.value, queue);
      // Right after the page's own answer (the form is made anew for it) that answer is the preview.
      if (!navigator.onLine) setOffline(true);
      else if (!answeredAtMount.current) preview('now');
    }
    setWaiting(queue.length);
    setListSize(field ? splitList(field.value).length : 0);
    return () => clearTimeout(timer.current);
  }, [owner, preview]);

  // Every change of the form (typing, pasting, a scan, the plan) asks for a new preview.
  useEffect(() => {
    const f = rootRef.current?.closest('form');
    if (!f) return;
    const onChange = (e: Event) => {
      const target = e.target as HTMLTextAreaElement | null;
      // The user's own edit of the list decides: a scanned code they deleted leaves the queue too.
      if (e.isTrusted && target?.name === 'iccids') {
        const present = new Set(splitList(target.value));
        const gone = readQueue(browserStorage(), owner).filter((c) => !present.has(c));
        if (gone.length) removeFromQueue(browserStorage(), owner, gone);
        refreshWaiting();
      }
      if (target?.name === 'iccids') setListSize(splitList(target.value).length);
      if (!backRef.current) preview('debounced');
    };
    f.addEventListener('input', onChange);
    f.addEventListener('change', onChange);
    return () => {
      f.removeEventListener('input', onChange);
      f.removeEventListener('change', onChange);
    };
  }, [owner, preview, refreshWaiting]);

  // The network: gone, the page says what waits; back, it asks before it sends anything.
  useEffect(() => {
    const goneOff = () => {
      clearTimeout(timer.current);
      setOffline(true);
      setBackPrompt(false);
    };
    const backOn = () => {
      setOffline(false);
      const f = rootRef.current?.closest('form');
      if (f && readForm(f).list.length > 0) setBackPrompt(true);
    };
    const onStorage = () => refreshWaiting();
    if (!navigator.onLine) setOffline(true);
    window.addEventListener('offline', goneOff);
    window.addEventListener('online', backOn);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('offline', goneOff);
      window.removeEventListener('online', backOn);
      window.removeEventListener('storage', onStorage);
    };
  }, [refreshWaiting]);

  // A form post of the page (its own preview or activation) takes over: the live view steps aside.
  useEffect(() => {
    if (!submitting) return;
    clearTimeout(timer.current);
    ticket.current++;
    setUpdating(false);
    setView((v) => (v.kind === 'run' && v.state === 'running' ? v : { kind: 'idle' }));
  }, [submitting]);

  // The page's own activation (the plain form, with JS too) answers rows: those leave the queue.
  useEffect(() => {
    // Every row of the posted list has its outcome in the result (the page lists only some of a long one).
    if (actionData?.step === 'result' && actionData.values) {
      removeFromQueue(browserStorage(), owner, splitList(actionData.values.iccids ?? ''));
      refreshWaiting();
    }
  }, [actionData, owner, refreshWaiting]);

  const active = view.kind !== 'idle';
  useEffect(() => onActive(active), [active, onActive]);

  /** A scanned code into the list (and the queue), unless the list holds it. */
  const onCode = (iccid: string): ScanAnswer => {
    const field = listField();
    if (!field) return 'repeat';
    const verdict = addToList(splitList(field.value), iccid);
    if (verdict.kind === 'repeat') return 'repeat';
    addToQueue(browserStorage(), owner, [iccid]);
    refreshWaiting();
    field.value = mergeIntoList(field.value, [iccid]);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    return 'added';
  };

  const clearList = () => {
    const field = listField();
    if (field) field.value = '';
    clearQueue(browserStorage(), owner);
    clearTimeout(timer.current);
    ticket.current++;
    setWaiting(0);
    setListSize(0);
    setBackPrompt(false);
    setUpdating(false);
    setView({ kind: 'idle' });
    field?.focus();
  };

  const sendWaiting = () => {
    setBackPrompt(false);
    preview('now');
  };

  /** Activates the rows still pending, 50 at a time, one call after another. */
  const activate = async (rows: BulkRow[], plan: Plan) => {
    clearTimeout(timer.current);
    ticket.current++;
    setUpdating(false);
    let current = rows;
    setView({ kind: 'run', plan, rows: current, state: 'running' });
    try {
      const trpc = await loadClient();
      for (let chunk = nextChunk(current); chunk.length > 0; chunk = nextChunk(current)) {
        const answer = await trpc.sim.bulkActivateChunk.mutate({
          iccids: chunk.map((i) => current[i]!.iccid),
          ...plan,
          dryRun: false,
        });
        current = applyChunk(current, chunk, answer.results);
        removeFromQueue(browserStorage(), owner, answered(current));
        refreshWaiting();
        setView({ kind: 'run', plan, rows: current, state: 'running' });
      }
    } catch (err) {
      const e = err as TrpcError;
      if (isNetworkError(err) && !navigator.onLine) setOffline(true);
      const problem = isNetworkError(err) ? undefined : e.message || tBulkScan.failed;
      setView({ kind: 'run', plan, rows: current, state: 'stopped', problem });
      return;
    }
    setView({ kind: 'run', plan, rows: current, state: 'finished' });
    try {
      const trpc = await loadClient();
      await trpc.sim.bulkActivateSummary.mutate({ simIds: activatedIds(current), total: current.length });
    } catch {
      // The toast is a courtesy: the result is on the page.
    }
  };

  if (!hydrated) return <div ref={rootRef} hidden />;

  const shown = submitting && !(view.kind === 'run' && view.state === 'running') ? null : view;

  return (
    <div ref={rootRef} className="bulklive">
      <BulkScan
        onCode={onCode}
        actions={
          listSize > 0 || waiting > 0 ? (
            <button type="button" className="btn" onClick={clearList}>
              {tBulkScan.clear}
            </button>
          ) : null
        }
        notices={
          <>
            {offline ? (
              <p className="notice bulklive-offline" role="status">
                {waiting > 0 ? tBulkScan.offline(waiting) : tBulkScan.offlineNothing}
              </p>
            ) : waiting > 0 ? (
              <p className="notice bulklive-waiting" role="status">
                {tBulkScan.waiting(waiting)}
              </p>
            ) : null}
            {backPrompt && !offline ? (
              <p className="bulklive-back">
                <button type="button" className="btn btn-primary" onClick={sendWaiting}>
                  {tBulkScan.back(waiting > 0 ? waiting : listSize)}
                </button>
              </p>
            ) : null}
          </>
        }
      />
      {slot && shown
        ? createPortal(
            <LiveView view={shown} updating={updating} onActivate={activate} onAgain={() => preview('now')} />,
            slot,
          )
        : null}
    </div>
  );
}

function LiveView({
  view,
  updating,
  onActivate,
  onAgain,
}: {
  view: View;
  updating: boolean;
  onActivate: (rows: BulkRow[], plan: Plan) => void;
  onAgain: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const finished = view.kind === 'run' && view.state !== 'running';
  useEffect(() => {
    if (finished) headingRef.current?.focus();
  }, [finished]);

  if (view.kind === 'idle') return null;
  if (view.kind === 'message')
    return (
      <section className="bulk-outcome bulklive-view" aria-live="polite">
        <p className="notice">{view.text}</p>
      </section>
    );
  if (view.kind === 'preview') {
    const ready = view.answer.counts.ready;
    return (
      <section className="bulk-outcome bulklive-view" aria-labelledby="bulk-live-title" aria-busy={updating}>
        <h2 id="bulk-live-title">{tBulkAdd.previewTitle}</h2>
        <p className="muted" role="status">
          {updating ? tBulkScan.updating : tBulkAdd.previewNote}
        </p>
        <BulkCounts counts={view.answer.counts} />
        {ready > 0 ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={updating}
            onClick={() => onActivate(startRows(view.list), view.plan)}
          >
            {tBulkAdd.confirm(ready)}
          </button>
        ) : (
          <p className="notice">{tBulkAdd.nothingReady}</p>
        )}
        <ShownRows rows={view.answer.results} />
      </section>
    );
  }
  const { counts, pending, done } = countRows(view.rows);
  const total = view.rows.length;
  return (
    <section className="bulk-outcome bulklive-view" aria-labelledby="bulk-live-title">
      <h2 id="bulk-live-title" ref={headingRef} tabIndex={-1}>
        {view.state === 'running' ? tBulkScan.progressLabel : tBulkAdd.resultTitle}
      </h2>
      {view.state === 'running' ? (
        <div className="bulklive-progress">
          <progress
            value={done}
            max={total}
            aria-label={tBulkScan.progressLabel}
            aria-valuenow={done}
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuetext={tBulkScan.progress(done, total)}
          />
          <p role="status">{tBulkScan.progress(done, total)}</p>
        </div>
      ) : null}
      {view.state === 'stopped' ? (
        <div className="notice error" role="alert">
          <p>{view.problem ?? tBulkScan.stopped(done, pending)}</p>
          <button type="button" className="btn btn-primary" onClick={() => onActivate(view.rows, view.plan)}>
            {tBulkScan.retry}
          </button>
        </div>
      ) : null}
      <BulkCounts counts={counts} pending={pending} />
      {view.state === 'finished' ? (
        <button type="button" className="btn" onClick={onAgain}>
          {tBulkAdd.again}
        </button>
      ) : null}
      <ShownRows rows={view.rows} />
    </section>
  );
}

/** The rows of the live preview or result: all of a short list, the problems of a long one (shownRows). */
function ShownRows({ rows }: { rows: readonly BulkRow[] }) {
  const shown = shownRows(rows);
  return <BulkRows rows={shown.rows} hidden={shown.hidden} />;
}
