// The camera scanner, imported only when first opened (quagga2 comes with it, about 45 kB gzip), for /add
// and the bulk list alike: the hook that loads it, what stands in its place until it is there, and /add's button.
import { useState, type ComponentType } from 'react';
import type { ScannerProps } from '#app/scanner/Scanner.tsx';
import { tScanButton } from '#domain/texts/scan-button.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export function useLazyScanner() {
  const [Scanner, setScanner] = useState<ComponentType<ScannerProps> | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  /** Starts the import unless it is done; a failed one is tried again. */
  const load = () => {
    if (Scanner) return;
    setLoadFailed(false);
    import('#app/scanner/Scanner.tsx')
      .then((m) => setScanner(() => m.Scanner))
      .catch((err) => {
        console.error('[scanner] could not load the scanner', err);
        setLoadFailed(true);
      });
  };

  return { Scanner, loadFailed, load };
}

/** The scanner's place while its module loads, or the reason it could not. */
export function ScannerPending({ failed }: { failed: boolean }) {
  return (
    <section id="scanner" className="scanner" aria-label={tScanButton.title}>
      {failed ? (
        <Notice kind="error" role="alert">
          {tScanButton.loadFailed}
        </Notice>
      ) : (
        <p className="scanner-status" role="status">
          {tScanButton.loading}
        </p>
      )}
    </section>
  );
}

/**
 * "Skanna streckkod" beside the ICCID. The server renders its box already, unseen (.js-placeholder: hidden, and
 * taking no room where scripting is off), so the form does not move when JavaScript arrives; after hydration it
 * is the button. Never a button that does nothing: without JS there is none.
 */
export function ScanToggle({ hydrated, open, onToggle }: { hydrated: boolean; open: boolean; onToggle: () => void }) {
  if (!hydrated)
    return (
      <span className="btn scan-toggle js-placeholder" aria-hidden="true">
        {tScanButton.open}
      </span>
    );
  return (
    <button type="button" className="btn scan-toggle" aria-expanded={open} aria-controls="scanner" onClick={onToggle}>
      {open ? tScanButton.close : tScanButton.open}
    </button>
  );
}
