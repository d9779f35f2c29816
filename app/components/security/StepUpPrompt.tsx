// "Ändringar här kräver att du bekräftar med din nyckel": with JS a button that runs the step-up ceremony and then
// reloads the page's data; a link to /security/confirm always (the way without JS, or with a recovery code).
import { Link, useLocation, useRevalidator } from '@remix-run/react';
import { tSecurity } from '#domain/texts/security.ts';
import { confirmHref } from '#app/utils/step-up.ts';
import { PasskeyButton } from './PasskeyButton.tsx';

export function StepUpPrompt({ message = tSecurity.stepUpPrompt.notice }: { message?: string }) {
  const location = useLocation();
  const revalidator = useRevalidator();
  const p = tSecurity.stepUpPrompt;
  return (
    <div className="notice step-up" role="status">
      <p>{message}</p>
      <div className="step-up-actions">
        <PasskeyButton
          purpose="stepUp"
          label={p.button}
          primary={false}
          quiet
          onDone={() => void revalidator.revalidate()}
        />
        <Link className="btn btn-link" to={confirmHref(location.pathname + location.search)}>
          {p.link}
        </Link>
      </div>
    </div>
  );
}
