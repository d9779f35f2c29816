// POST /theme switches the colour theme and goes back to the page it came from.
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { themeCookie } from '#app/utils/theme.ts';

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = form.get('theme') === 'light' ? 'light' : 'dark';
  // The page it came from, if the Referer is a well-formed address of this site (a client may send anything).
  const referer = request.headers.get('referer');
  const url = referer && URL.canParse(referer) ? new URL(referer) : null;
  const back = url && url.origin === new URL(request.url).origin ? safeRedirectTarget(url.pathname + url.search) : '/';
  return redirect(back, { headers: { 'Set-Cookie': themeCookie(theme) } });
}

export function loader() {
  return redirect('/');
}
