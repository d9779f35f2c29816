import type { ReactNode } from 'react';
import { Form } from '@remix-run/react';

/**
 * "Logga ut": a whole-document POST to /auth/logout, also with JavaScript (the answer is a redirect to /login, and
 * the page's data held in the browser's memory goes with the old document).
 */
export function LogoutForm({ className = 'btn', children }: { className?: string; children: ReactNode }) {
  return (
    <Form method="post" action="/auth/logout" reloadDocument>
      <button className={className} type="submit">
        {children}
      </button>
    </Form>
  );
}
