// Shared by forms and their actions: the key under which a refusal that names no field is shown.
export const FORM_ERROR = '_form';

/** A checkbox: a ticked box is posted (whatever its value), an unticked one is not posted at all. */
export function formFlag(form: FormData, name: string): boolean {
  return form.has(name);
}

/**
 * An action result that says nothing was changed because the operation failed ({ failed: true }): the page's
 * data is then as it was, and reloading it would only meet the same fault (a lost network, a database down)
 * and turn the whole page into the error page.
 */
export function submissionFailed(actionResult: unknown): boolean {
  return (
    typeof actionResult === 'object' && actionResult !== null && (actionResult as { failed?: unknown }).failed === true
  );
}

/**
 * A form's clientAction: with JS the post is a fetch, and when it fails on the way (no network, the server's
 * error page) the answer is `{ failed: true }`, so the form stays with what was typed and says so, instead
 * of the route's error page. The page's shouldRevalidate keeps its data (`submissionFailed`).
 */
export async function keepTypedOnFailure<T>(
  serverAction: () => Promise<T>,
  form: string,
): Promise<T | { failed: true }> {
  try {
    return await serverAction();
  } catch (err) {
    if (err instanceof Response) throw err; // a redirect, e.g. to the login page
    console.error(`[${form}] sending failed`, err);
    return { failed: true };
  }
}
