// Toasts: one at a time, 5000 ms each, errors in destructive style, announced to screen readers.
// They come from the server's event stream (open only while the tab is visible and the user is logged
// in), from a flash after a redirect (rendered by the server, so also without JS), or from page code
// through showToast(). One sent while the tab's own form post is on its way waits for its answer.
import { useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { USAGE_EVENT } from '#app/utils/live-usage.ts';

export type ToastData = { id: string; type: 'error' | 'info'; title: string; message: string };

export const TOAST_MS = 5000;
const TOAST_EVENT = 'app:toast';
const SEEN_KEY = 'sim-portal:toasts-seen';

/** Shows a toast from page code (e.g. a failed download). */
export function showToast(toast: Omit<ToastData, 'id'> & { id?: string }) {
  window.dispatchEvent(
    new CustomEvent(TOAST_EVENT, { detail: { id: toast.id ?? `local-${Date.now()}-${Math.random()}`, ...toast } }),
  );
}

function seenBefore(id: string): boolean {
  // A flash and the live event of the same action carry one id: show it once per tab.
  try {
    const seen: string[] = JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '[]');
    if (seen.includes(id)) return true;
    sessionStorage.setItem(SEEN_KEY, JSON.stringify([...seen, id].slice(-50)));
  } catch {
    // storage unavailable: show it
  }
  return false;
}

export function Toaster({ flash, loggedIn }: { flash: ToastData | null; loggedIn: boolean }) {
  const [hydrated, setHydrated] = useState(false);
  const [queue, setQueue] = useState<ToastData[]>([]);
  const enqueue = useRef((t: ToastData) => {
    if (!seenBefore(t.id)) setQueue((q) => [...q, t]);
  });

  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (flash) enqueue.current(flash);
  }, [flash]);

  useEffect(() => {
    const onLocal = (e: Event) => enqueue.current((e as CustomEvent<ToastData>).detail);
    window.addEventListener(TOAST_EVENT, onLocal);
    return () => window.removeEventListener(TOAST_EVENT, onLocal);
  }, []);

  // The event stream: open only while logged in and the tab is visible.
  useEffect(() => {
    if (!loggedIn) return;
    let source: EventSource | null = null;
    const open = () => {
      if (source || document.visibilityState !== 'visible') return;
      source = new EventSource('/api/sse');
      // New usage of the company: the pages that show usage fetch their data again (app/utils/live-usage.ts).
      source.addEventListener('usage', () => window.dispatchEvent(new Event(USAGE_EVENT)));
      source.addEventListener('toast', (e) => {
        try {
          enqueue.current(JSON.parse((e as MessageEvent<string>).data) as ToastData);
        } catch {
          // ignore a malformed event
        }
      });
    };
    const close = () => {
      source?.close();
      source = null;
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? open() : close());
    open();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      close();
    };
  }, [loggedIn]);

  // While the tab's own form is on its way (and its answer loads), a toast waits: the event stream is quicker than a
  // slow network's answer, and "120 SIM-kort är aktiverade" must not stand beside a page that still shows the
  // preview. It shows with the answer (a flash of the same action is the same toast, shown once). One already on the
  // screen stays.
  const held = useNavigation().formData !== undefined;
  const onScreen = useRef<string>();
  const current = held && queue[0]?.id !== onScreen.current ? undefined : queue[0];
  useEffect(() => {
    if (!current) return;
    onScreen.current = current.id;
    const timer = setTimeout(() => setQueue((q) => q.slice(1)), TOAST_MS);
    return () => clearTimeout(timer);
  }, [current]);

  // Before hydration (or without JS) the server-rendered flash shows; CSS hides it after 5 s.
  const shown = hydrated ? current : flash;
  return (
    <div className="toast-region" aria-live="polite">
      {shown ? (
        <div
          key={shown.id}
          className={`toast ${shown.type === 'error' ? 'error' : ''} ${hydrated ? '' : 'toast-static'}`}
          role={shown.type === 'error' ? 'alert' : 'status'}
        >
          <strong>{shown.title}</strong>
          {shown.message ? <span>{shown.message}</span> : null}
        </div>
      ) : null}
    </div>
  );
}
