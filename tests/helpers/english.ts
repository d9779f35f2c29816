// "No English word in any page's text" (issue 41, finding 4): the words of an English interface a Swedish page must
// not show, read from what a user sees and hears (the text, and the labels, titles, placeholders and alternative
// texts of the controls). Loanwords Swedish uses as they are (webhook, feedback, export, status, e-post) are not
// listed; the names of standards and products (OpenID Connect, CSV, Excel, API) are not words of the interface.
import type { Page } from 'playwright-core';

export const ENGLISH_WORDS = [
  'Error',
  'An error occurred',
  'Something went wrong',
  'Submit',
  'Cancel',
  'Save',
  'Delete',
  'Edit',
  'Loading',
  'Search',
  'Settings',
  'Password',
  'Username',
  'Login',
  'Log in',
  'Log out',
  'Logout',
  'Sign in',
  'Sign out',
  'Next',
  'Previous',
  'Close',
  'Upload',
  'Download',
  'Continue',
  'Confirm',
  'Required',
  'Invalid',
  'Optional',
  'Select',
  'Choose',
  'Dashboard',
  'Account',
  'Back',
  'Help',
  'Show',
  'Hide',
  'Add',
  'Remove',
  'Update',
  'Create',
  'Name',
  'Date',
  'Today',
  'Yesterday',
  'Month',
  'Year',
  'Page',
  'Results',
  'Actions',
  'Details',
  'Overview',
  'Welcome',
  'Thank you',
  'Active',
  'Inactive',
  'Paused',
  'Enabled',
  'Disabled',
  'Copy',
  'Copied',
  'Print',
  'Retry',
  'Reset',
  'Apply',
  'Clear',
  'More',
  'Theme',
  'Dark',
  'Light',
  'Skip',
  'Not found',
  'Forbidden',
  'Bad Request',
  'Unauthorized',
  'Choose File',
  'No file chosen',
];

// The longest first: "Choose File" before "Choose".
const ALTERNATIVES = [...ENGLISH_WORDS].sort((a, b) => b.length - a.length).join('|');
const PATTERN = new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${ALTERNATIVES})(?![\\p{L}\\p{N}_-])`, 'gu');

/** The English interface words on the page as a user meets them, each once. */
export async function englishOn(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll(
      '[aria-label], [title], [placeholder], [alt], input[type="submit"], input[type="button"]',
    )) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(name);
        if (v) out.push(v);
      }
      if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button')) out.push(el.value);
    }
    return out;
  });
  return englishIn(texts);
}

/** The English interface words of these texts, each once. */
export function englishIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(PATTERN)) found.add(m[0]);
  return [...found];
}
