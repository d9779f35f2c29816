// "Ändringar här kräver att du bekräftar med din nyckel": with JS a button that runs the step-up ceremony and then
// reloads the page's data; a link to /security/confirm always (the way without JS, or with a recovery code).
// In the layout of every page, so it carries only its words: the button's module is imported once the page has
// hydrated with the notice on it (its box is kept, unseen, until then: nothing moves), the ceremony on a press.
import { Link, useLocation, useRevalidator } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { confirmHref } from '#app/utils/step-up.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

type Button = typeof import('./PasskeyButton.tsx').PasskeyButton;

export function StepUpPrompt({ message = tPasskeyPrompt.stepUp.notice }: { message?: string }) {
  const location = useLocation();
  const revalidator = useRevalidator();
  const [PasskeyButton, setPasskeyButton] = useState<Button | null>(null);
  useEffect(() => {
    let live = true;
    import('./PasskeyButton.tsx')
      .then((m) => live && setPasskeyButton(() => m.PasskeyButton))
      // Without it the link below is the way, as without JS.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const p = tPasskeyPrompt.stepUp;
  return (
    <Notice as="div" className="step-up" role="status">
      <p>{message}</p>
      <div className="step-up-actions">
        {PasskeyButton ? (
          <PasskeyButton
            purpose="stepUp"
            label={p.button}
            primary={false}
            quiet
            onDone={() => void revalidator.revalidate()}
          />
        ) : (
          <div className="passkey-action js-placeholder" aria-hidden="true">
            <span className="btn">{p.button}</span>
          </div>
        )}
        <Link className="btn btn-link" to={confirmHref(location.pathname + location.search)}>
          {p.link}
        </Link>
      </div>
    </Notice>
  );
}
