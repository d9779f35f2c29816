// A button that runs a passkey ceremony (JS only: without it the button is not shown, a notice says why), with
// its busy state and its error next to it. The layout's step-up notice has one on every page that asks for a
// step-up, so this module stays small: the ceremony (with its texts and @simplewebauthn/browser) is imported on
// the first press, not with the page.
import { useState, type ReactNode } from 'react';
import type { CeremonyPurpose } from '#domain/auth/passkeys.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { useHydrated } from '#app/utils/hydrated.ts';

/**
 * What a page shows where a passkey button would be until its script runs: without JavaScript it stays. (Not a
 * <noscript>: a browser that merely blocks scripts parses its content as text and shows nothing.)
 */
export function NeedsJavaScript() {
  return <Notice>{tPasskeyPrompt.needsJs}</Notice>;
}

/** The ceremony, imported when first wanted; a failed import is an error the button shows, like any other. */
async function ceremony<T>(purpose: CeremonyPurpose, extra: { name?: string }) {
  try {
    const { runCeremony } = await import('./ceremony.ts');
    return await runCeremony<T>(purpose, extra);
  } catch {
    return { ok: false as const, error: tPasskeyPrompt.loadFailed };
  }
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
  /**
   * Without JS show nothing (the page offers another way), not the notice. Until hydration the button's box is
   * there unseen (.js-placeholder), so nothing moves when it appears.
   */
  quiet?: boolean;
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const className = primary ? 'btn btn-primary' : 'btn';
  if (!hydrated)
    return quiet ? (
      <div className="passkey-action js-placeholder" aria-hidden="true">
        <span className={className}>{label}</span>
      </div>
    ) : (
      <NeedsJavaScript />
    );
  return (
    <div className="passkey-action">
      {children}
      <button
        className={className}
        type="button"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => {
          setBusy(true);
          setError(null);
          void ceremony<T>(purpose, name ? { name: name() } : {}).then((result) => {
            setBusy(false);
            if (result.ok) onDone(result.value);
            else setError(result.error);
          });
        }}
      >
        {busy ? tPasskeyPrompt.adding : label}
      </button>
      {error ? (
        <Notice kind="error" role="alert">
          {error}
        </Notice>
      ) : null}
    </div>
  );
}
