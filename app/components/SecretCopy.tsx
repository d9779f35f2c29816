// A secret shown once (a new API key or network key, a webhook's signing secret): a read-only field (select and copy
// by hand without JS) and, once the page runs JS, a "Kopiera" button that puts it on the clipboard. One component for
// every secret (issue 41: the webhook's had no button).
import { useEffect, useState } from 'react';
import { t } from '#domain/texts/common.ts';

export function SecretCopy({ id, value }: { id: string; value: string }) {
  const [js, setJs] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setJs(true), []);
  const copy = async () => {
    const input = document.getElementById(id) as HTMLInputElement | null;
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard access (an insecure origin): select the key so Ctrl+C copies it.
      input?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
  };
  return (
    <div className="apikeys-copy">
      <input
        id={id}
        className="apikeys-key"
        readOnly
        value={value}
        spellCheck={false}
        autoComplete="off"
        onFocus={(e) => e.currentTarget.select()}
      />
      {js ? (
        <button type="button" className="btn" onClick={() => void copy()} aria-live="polite">
          {copied ? t.copy.done : t.copy.copy}
        </button>
      ) : null}
    </div>
  );
}
