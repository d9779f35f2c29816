// "Kopiera", once the page runs JS: puts a value on the clipboard and says "Kopierad". Without clipboard access (an
// insecure origin) it selects the element that shows the value, so Ctrl+C copies it. Used for every secret shown
// once (SecretCopy) and for the recovery codes.
import { useState } from 'react';
import { useHydrated } from '#app/utils/hydrated.ts';
import { t } from '#domain/texts/common.ts';

/** `selectId`: the element that shows the value (an input, or any element whose text it is). */
export function CopyButton({ value, selectId }: { value: string; selectId: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const shown = document.getElementById(selectId);
      if (shown instanceof HTMLInputElement) shown.select();
      else if (shown) window.getSelection()?.selectAllChildren(shown);
      document.execCommand?.('copy');
    }
    setCopied(true);
  };
  return (
    <button type="button" className="btn" onClick={() => void copy()} aria-live="polite">
      {copied ? t.copy.done : t.copy.copy}
    </button>
  );
}
