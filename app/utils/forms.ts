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
  return typeof actionResult === 'object' && actionResult !== null && (actionResult as { failed?: unknown }).failed === true;
}
