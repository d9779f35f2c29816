// A button that runs a passkey ceremony (JS only: without it the button is not shown, a notice says why), with
// its busy state and its error next to it.
import { useEffect, useState, type ReactNode } from 'react';
import type { CeremonyPurpose } from '#domain/auth/passkeys.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { runCeremony } from './ceremony.ts';

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * What a page shows where a passkey button would be until its script runs: without JavaScript it stays. (Not a
 * <noscript>: a browser that merely blocks scripts parses its content as text and shows nothing.)
 */
export function NeedsJavaScript() {
  return <p className="notice">{tSecurity.passkeys.needsJs}</p>;
}

export function PasskeyButton<T>({
  purpose,
  label,
  primary = true,
  name,
  onDone,
  quiet = false,
  children,
}: {
  purpose: CeremonyPurpose;
  label: string;
  primary?: boolean;
  /** A new passkey's name (register), read when the button is pressed. */
  name?: () => string;
  onDone: (value: T) => void;
  /** Without JS show nothing (the page offers another way), not the notice. */
  quiet?: boolean;
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hydrated) return quiet ? null : <NeedsJavaScript />;
  return (
    <div className="passkey-action">
      {children}
      <button
        className={primary ? 'btn btn-primary' : 'btn'}
        type="button"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => {
          setBusy(true);
          setError(null);
          void runCeremony<T>(purpose, name ? { name: name() } : {}).then((result) => {
            setBusy(false);
            if (result.ok) onDone(result.value);
            else setError(result.error);
          });
        }}
      >
        {busy ? tSecurity.passkeys.adding : label}
      </button>
      {error ? (
        <p className="notice error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Recovery codes to write down: shown once, right after they were made. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section className="card" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">{tSecurity.recovery.codesTitle}</h2>
      <p className="notice">{tSecurity.recovery.shownOnce}</p>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
