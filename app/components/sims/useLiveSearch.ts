// The live search of /sims (app/routes/sims._index.tsx), with JS; without it the search box is a plain GET form.
import { useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

/** The pause in typing before a live search asks (a newer search cancels the one on its way: the router's). */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The live search (JS): after a short pause in typing the search box's text becomes the address (/sims?q=...,
 * with the view's and tags' `keep`)
 * through the router, which loads the list (the same loader as without JS), replaces the history entry rather
 * than adding one per keystroke, and cancels a search still on its way when a newer one starts.
 */
export function useLiveSearch(loadedQ: string, keep: URLSearchParams = new URLSearchParams()) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [text, setText] = useState(loadedQ);
  const asked = useRef(loadedQ);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  // An address from elsewhere (a link to /sims, back and forward) puts its search in the box; the answer to
  // this box's own search leaves the box alone, as the user may have typed on meanwhile.
  useEffect(() => {
    if (loadedQ !== asked.current) {
      clearTimeout(timer.current);
      asked.current = loadedQ;
      setText(loadedQ);
    }
  }, [loadedQ]);
  const typed = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      asked.current = value;
      // The list's view (sort, filter) and tags stay as they are: only the search changes.
      const params = new URLSearchParams(value ? { q: value } : {});
      for (const [name, v] of keep) params.append(name, v);
      submit(params, {
        method: 'get',
        action: '/sims',
        replace: true,
        preventScrollReset: true,
      });
    }, SEARCH_DEBOUNCE_MS);
  };
  const next = navigation.location;
  const searching = next?.pathname === '/sims' && (new URLSearchParams(next.search).get('q') ?? '') !== loadedQ;
  return { text, typed, searching };
}
