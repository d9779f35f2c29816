// What the company screen tests (/company, its API keys and webhooks) start from: a company of its own with
// one owner, so each run's users, keys, endpoints and last-owner rule are its own; and the steps they share.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { axeViolations } from './browser.ts';
import type { TestServer } from './server.ts';

/** The four ways the company screens are tested: JS on and off, desktop and 390 px (the tag names screenshots). */
export const screenVariants = [
  { js: true, width: undefined, tag: 'JSdesk' },
  { js: false, width: 390, tag: 'noJS390' },
  { js: true, width: 390, tag: 'JS390' },
  { js: false, width: undefined, tag: 'noJSdesk' },
] as const;

/** How many companies each word and tag was asked for: a test run again (CI retries a failed test once) gets its own. */
const made = new Map<string, number>();

/**
 * "<Word> <tag> AB" (customer number WORD-tag) with the owner "Ägare <tag>", agare.<tag>@<word>.se; asked again
 * for the same word and tag (a retried test), "<Word> <tag> <n> AB", WORD-tag-n, agare.<tag>.<n>@<word>.se.
 */
export async function companyWithOwner(server: TestServer, word: string, tag: string) {
  const n = (made.get(`${word}:${tag}`) ?? 0) + 1;
  made.set(`${word}:${tag}`, n);
  const again = n === 1 ? '' : `-${n}`;
  const em = server.services.orm.em.fork();
  const company = em.create(Company, {
    name: `${word} ${tag}${n === 1 ? '' : ` ${n}`} AB`,
    customerNumber: `${word.toUpperCase()}-${tag}${again}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  const owner = em.create(User, {
    name: `Ägare ${tag}`,
    email: `agare.${tag.toLowerCase()}${again.replace('-', '.')}@${word.toLowerCase()}.se`,
    company,
    role: 'owner',
  });
  await em.flush();
  return { companyId: company.id, ownerId: owner.id, ownerEmail: owner.email };
}

/** With JS, waits until Remix has taken over the page, so clicks go through the client router. */
export async function ready(page: Page, js: boolean) {
  await page.waitForLoadState();
  if (js) await page.waitForFunction(() => '__remixRouter' in window);
}

/** A screenshot (test-results/<name>-390.png or -desktop.png) and, with JS, no WCAG 2.1 AA violation. */
export async function look(page: Page, name: string, v: { js: boolean; width?: number }) {
  await page.screenshot({ path: `test-results/${name}-${v.width === 390 ? '390' : 'desktop'}.png`, fullPage: true });
  if (v.js) expect(await axeViolations(page)).toEqual([]);
}
