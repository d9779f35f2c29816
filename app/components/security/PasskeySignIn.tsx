// "Logga in med nyckel" on /login: the passkey alone (any of this site's passkeys the browser offers), then on to
// redirectTo or the start page. JS only; without it the page has the e-mail link.
import { useState } from 'react';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { PasskeyButton } from './PasskeyButton.tsx';

export function PasskeySignIn({ redirectTo }: { redirectTo?: string | null }) {
  const [leaving, setLeaving] = useState(false);
  return (
    <div className="passkey-sign-in">
      <PasskeyButton
        purpose="signIn"
        label={tPasskeyPrompt.signIn}
        primary={false}
        quiet
        onDone={() => {
          setLeaving(true);
          // A full load: the layout and every loader read the new session.
          window.location.assign(safeRedirectTarget(redirectTo, '/', window.location.origin));
        }}
      />
      {leaving ? (
        <span className="visually-hidden" role="status">
          {tPasskeyPrompt.signIn}
        </span>
      ) : null}
    </div>
  );
}
