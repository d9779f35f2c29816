// POST /theme switches the colour theme and goes back to the page it came from.
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { safeRedirectTarget } from '~/utils/paths';
import { themeCookie } from '~/utils/theme';

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = form.get('theme') === 'light' ? 'light' : 'dark';
  const referer = request.headers.get('referer');
  let back = '/';
  if (referer) {
    const url = new URL(referer);
    if (url.origin === new URL(request.url).origin) back = safeRedirectTarget(url.pathname + url.search);
  }
  return redirect(back, { headers: { 'Set-Cookie': themeCookie(theme) } });
}

export function loader() {
  return redirect('/');
}
