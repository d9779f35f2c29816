// Live usage (issue 39): the event stream (app/components/Toaster.tsx, server/http/sse.ts) tells a tab when new
// usage of its company is stored; a page that shows usage calls useLiveUsage() and fetches its own data again
// (its loader: one request for the page, never one per SIM), at most every LIVE_USAGE_MS, only while the tab is
// seen and nothing else is loading or being sent. Without JS the page is as fresh as its last load.
import { useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';

export const USAGE_EVENT = 'app:usage';
/** At most one refresh in this time, however often usage arrives (a feed may send every second). */
export const LIVE_USAGE_MS = 10_000;

export function useLiveUsage(): void {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const busy = useRef(false);
  busy.current = navigation.state !== 'idle' || revalidator.state !== 'idle';
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const run = () => {
      timer = null;
      if (document.visibilityState !== 'visible' || busy.current) {
        timer = setTimeout(run, LIVE_USAGE_MS);
        return;
      }
      last = Date.now();
      revalidate.current();
    };
    const onUsage = () => {
      if (timer) return;
      timer = setTimeout(run, Math.max(0, last + LIVE_USAGE_MS - Date.now()));
    };
    window.addEventListener(USAGE_EVENT, onUsage);
    return () => {
      window.removeEventListener(USAGE_EVENT, onUsage);
      if (timer) clearTimeout(timer);
    };
  }, []);
}
