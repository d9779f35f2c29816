// The keyboard on /sims with JS (issue 41: every task in at most 10 key presses from the top of the page): the list
// is one stop of Tab, not 100 (a roving tabindex, as the ARIA grid and GitHub's lists do): the current row's box (or,
// for a viewer, its link) is the stop; ↑ ↓ Home End move between rows; Enter on a row opens the SIM; Space ticks it
// (the box's own key). The toolbar of the ticked rows is one stop for its buttons (← → Home End between them) and
// its tag field another, and Enter in the field adds the tag. "Hoppa till listan" (the page's first link) puts the
// keyboard on the current row. Without JS every box and link is its own stop, as the browser has them.
import { useEffect, type RefObject } from 'react';

/** The element of each row the keyboard stops at: the box, or a viewer's link. */
const rowStops = (table: HTMLElement) =>
  [...table.querySelectorAll<HTMLElement>('tbody tr')]
    .map((tr) => tr.querySelector<HTMLElement>('input[name="id"]') ?? tr.querySelector<HTMLElement>('a.sims-open'))
    .filter((el): el is HTMLElement => el !== null);

/** One stop of Tab among `stops`: the `current` one (the others are reached by the arrows). */
function rove(stops: HTMLElement[], current: HTMLElement | undefined) {
  for (const el of stops) el.tabIndex = el === current ? 0 : -1;
}

/** The index a navigation key moves to among `n` items from `i`, or null for another key. */
function moveOf(key: string, i: number, n: number, back: string, forward: string): number | null {
  if (key === forward) return Math.min(n - 1, i + 1);
  if (key === back) return Math.max(0, i - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return n - 1;
  return null;
}

/**
 * The list's keys: `table` is /sims' table, `skipHref` the skip link's target (its id on the table). `rows` changes
 * with every new list (another page, a search): the first row is current then.
 */
export function useKeyboardList(table: RefObject<HTMLTableElement>, skipHref: string, rows: unknown): void {
  useEffect(() => {
    const el = table.current;
    if (!el) return;
    const current = { current: 0 };
    const stops = rowStops(el);
    rove(stops, stops[0]);
    // Each link of a row with a box stays a link (a click, a screen reader's list of links), but not a stop of Tab:
    // Enter on the row's box opens it.
    for (const a of el.querySelectorAll<HTMLElement>('tbody tr:has(input[name="id"]) a.sims-open')) a.tabIndex = -1;
    // The sortable headers' links likewise (the search form's "Sortera" sorts by the keyboard): from the rows,
    // Shift+Tab reaches "Markera alla på sidan" and then the toolbar.
    for (const a of el.querySelectorAll<HTMLElement>('thead a')) a.tabIndex = -1;
    // A row focused by a click or a screen reader becomes the current one.
    const onFocus = (e: FocusEvent) => {
      const all = rowStops(el);
      const i = all.indexOf(e.target as HTMLElement);
      if (i < 0) return;
      current.current = i;
      rove(all, all[i]);
    };
    el.addEventListener('focusin', onFocus);
    // The skip link: on to the current row (its box), not to the table's first header.
    const onSkip = (e: MouseEvent) => {
      const link = (e.target as HTMLElement | null)?.closest?.(`a[href="${skipHref}"]`);
      if (!link) return;
      const stop = rowStops(el)[current.current];
      if (!stop) return;
      e.preventDefault();
      stop.focus();
    };
    document.addEventListener('click', onSkip);
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const all = rowStops(el);
      const i = all.indexOf(e.target as HTMLElement);
      if (i < 0) return;
      if (e.key === 'Enter') {
        // Enter on a row's box opens the SIM (a box in a form would otherwise send the form).
        const link = all[i]?.closest('tr')?.querySelector<HTMLAnchorElement>('a.sims-open');
        if (!link || link === all[i]) return;
        e.preventDefault();
        link.click();
        return;
      }
      const to = moveOf(e.key, i, all.length, 'ArrowUp', 'ArrowDown');
      if (to === null || to === i) return;
      e.preventDefault();
      current.current = to;
      rove(all, all[to]);
      all[to]?.focus();
    };
    el.addEventListener('keydown', onKey);
    return () => {
      el.removeEventListener('focusin', onFocus);
      el.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onSkip);
    };
  }, [table, skipHref, rows]);
}

/** The toolbar's buttons (not its tag field, a stop of its own). */
const toolbarButtons = (bar: HTMLElement) => [...bar.querySelectorAll<HTMLElement>('button')];

/**
 * The toolbar of the ticked rows as one stop of Tab for its buttons (the first of them current until another is
 * used), ← → Home End between them; Enter in its text field presses `enterButton` (the tag's "Lägg till"), never
 * the form's first button.
 */
export function useKeyboardToolbar(bar: RefObject<HTMLElement>, enterButton: string): void {
  // Every render: the toolbar is made anew when it moves before the rows (hydration), and its buttons with it.
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    // Once per toolbar: its first button is the stop until another is used.
    if (!el.dataset.roving) {
      el.dataset.roving = '';
      const buttons = toolbarButtons(el);
      rove(buttons, buttons[0]);
    }
    const onFocus = (e: FocusEvent) => {
      const all = toolbarButtons(el);
      if (all.includes(e.target as HTMLElement)) rove(all, e.target as HTMLElement);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement;
      if (target instanceof HTMLInputElement) {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        el.querySelector<HTMLButtonElement>(enterButton)?.click();
        return;
      }
      const buttons = toolbarButtons(el);
      const i = buttons.indexOf(target);
      if (i < 0) return;
      const to = moveOf(e.key, i, buttons.length, 'ArrowLeft', 'ArrowRight');
      if (to === null || to === i) return;
      e.preventDefault();
      rove(buttons, buttons[to]);
      buttons[to]?.focus();
    };
    el.addEventListener('focusin', onFocus);
    el.addEventListener('keydown', onKey);
    return () => {
      el.removeEventListener('focusin', onFocus);
      el.removeEventListener('keydown', onKey);
    };
  });
}
