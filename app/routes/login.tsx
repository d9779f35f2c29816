// Login: one e-mail field; the link arrives by e-mail.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useSearchParams } from '@remix-run/react';
import { t } from '~/texts';

export const meta: MetaFunction = () => [{ title: `${t.login.title} – ${t.appName}` }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (context.session) throw redirect('/');
  return null;
}

export default function Login() {
  const [params] = useSearchParams();
  return (
    <>
      <h1>{t.login.title}</h1>
      <Form method="post" action={`/auth/login${params.get('redirectTo') ? `?redirectTo=${encodeURIComponent(params.get('redirectTo')!)}` : ''}`} className="card">
        <div className="field">
          <label htmlFor="destination">{t.login.email}</label>
          <input id="destination" name="destination" type="email" autoComplete="email" required inputMode="email" />
        </div>
        <button className="btn btn-primary" type="submit">{t.login.submit}</button>
      </Form>
      <p className="muted">{t.login.register}</p>
    </>
  );
}
