// "/" puts the keyboard in a page's search (issue 41: the key every console's list answers to), unless the user is
// already typing somewhere: in a field, a text area, a select or an editable region, or with a modifier held.
import { useEffect } from 'react';

const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether a key press is meant for the element it happened in (typed text, a list's own keys). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // A box or a button is not typed in: "/" from a ticked row still goes to the search.
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  return target.isContentEditable || ['TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useSlashFocus(inputId: string): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.defaultPrevented) return;
      if (typingIn(e.target)) return;
      const input = document.getElementById(inputId);
      if (!(input instanceof HTMLInputElement)) return;
      e.preventDefault();
      input.focus();
      input.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [inputId]);
}
