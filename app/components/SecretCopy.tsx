// A secret shown once (a new API key or network key, a webhook's signing secret): a read-only field (select and copy
// by hand without JS) and, once the page runs JS, a "Kopiera" button that puts it on the clipboard. One component for
// every secret (issue 41: the webhook's had no button).
import { CopyButton } from '#app/components/CopyButton.tsx';

export function SecretCopy({ id, value }: { id: string; value: string }) {
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
      <CopyButton value={value} selectId={id} />
    </div>
  );
}
