// The layout's step-up notice, which says up front what a change here needs and offers what the user has:
// - a passkey: a button that runs the step-up ceremony and then reloads the page's data (JS), and a link to
//   /security/confirm for the other ways (a recovery code, the company's provider; the way without JS);
// - no passkey yet: a link to /security/confirm, which mails a step-up link and then adds a passkey, and comes
//   back here (the address keeps a refused form's values: app/utils/step-up.ts).
// In the layout of every page, so it carries only its words: the button's module is imported once the page has
// hydrated with the notice on it (its box is kept, unseen, until then: nothing moves), the ceremony on a press.
import { Link, useLocation, useRevalidator, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { confirmHref, type StepUpWanted } from '#app/utils/step-up.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

type Button = typeof import('./PasskeyButton.tsx').PasskeyButton;

/** The root loader's answer as far as the prompt reads it. */
type RootData = { user?: { stepUpWanted?: StepUpWanted } | null } | undefined;

/** `none`: the user has no passkey (by default as the layout's data says; a page that knows may say). */
export function StepUpPrompt({ message, none: noPasskey }: { message?: string; none?: boolean }) {
  const location = useLocation();
  const revalidator = useRevalidator();
  const root: RootData = useRouteLoaderData('root');
  const wanted = root?.user?.stepUpWanted;
  const none = noPasskey ?? wanted === 'none';
  const [PasskeyButton, setPasskeyButton] = useState<Button | null>(null);
  useEffect(() => {
    if (none) return;
    let live = true;
    import('./PasskeyButton.tsx')
      .then((m) => live && setPasskeyButton(() => m.PasskeyButton))
      // Without it the link below is the way, as without JS.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [none]);
  const p = tPasskeyPrompt.stepUp;
  const href = confirmHref(location.pathname + location.search);
  if (none)
    return (
      <Notice as="div" className="step-up" role="status">
        <p>{message ?? p.noticeNone}</p>
        <div className="step-up-actions">
          <Link className="btn" to={href}>
            {p.linkNone}
          </Link>
        </div>
      </Notice>
    );
  return (
    <Notice as="div" className="step-up" role="status">
      <p>{message ?? p.notice}</p>
      {message ? null : <p>{p.noticeOther}</p>}
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
        <Link className="btn btn-link" to={href}>
          {p.link}
        </Link>
      </div>
    </Notice>
  );
}
