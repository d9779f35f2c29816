// One word per thing (docs/glossary.md, issue 41 finding 3): the header, the home page's buttons and the pages'
// titles name each place alike, and the spec's dialog agrees with the words around it.
import { describe, expect, it } from 'vitest';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tCompanyUsage } from '#domain/texts/company-usage.ts';
import { tHeader } from '#domain/texts/header.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';
import { passkeyWords } from '#domain/texts/passkey-prompt.ts';
import { tSecurity } from '#domain/texts/security.ts';

describe('the glossary', () => {
  it('names each place alike in the header, on the home page and as its title', () => {
    expect(tHeader.sections.sims).toBe(t.pages.sims);
    expect(t.home.list).toBe(`Visa ${t.pages.sims}`);
    expect(t.home.activate).toBe(t.pages.add);
    expect(t.pages.add.startsWith(`${tHeader.sections.add} `)).toBe(true);
    expect(t.pages.addBulk.startsWith(`${tHeader.sections.add} `)).toBe(true);
    expect(tBulkAdd.link.startsWith(`${tHeader.sections.add} `)).toBe(true);
    expect(tHeader.sections.company).toBe(tCompany.title);
    expect(tCompany.homeLink).toBe(tCompany.title);
    expect(tHeader.sections.usage).toBe(tCompanyUsage.title);
  });

  it('keeps "Meny" for the phone\'s sections, not the home page', () => {
    expect(tHeader.menu).toBe('Meny');
    expect(t.home.title).not.toBe(tHeader.menu);
  });

  it("says \"avaktivera\" around the spec's 'Ta bort SIM-kort'", () => {
    expect(t.sims.confirmTitle).toBe('Ta bort SIM-kort');
    expect(t.sims.confirmText).toMatch(/avaktivera SIM-kortet/);
    expect(t.sims.deactivate).toBe('Avaktivera');
    expect(tBulkDeactivate.submit.startsWith('Avaktivera ')).toBe(true);
    expect(tBulkDeactivate.confirm(2)).toBe('Avaktivera 2 SIM-kort');
  });

  it('calls a passkey an "inloggningsnyckel" wherever the security pages name it', () => {
    expect(passkeyWords.one).toBe('inloggningsnyckel');
    const texts = JSON.stringify(tSecurity, (_k, v: unknown) => (typeof v === 'function' ? v('x', 'x', 1) : v));
    // A key is named by its kind (a passkey, the company's API keys, the server's encryption key): never a bare
    // "nyckel" that could be any of them.
    for (const m of texts.matchAll(/(\S*)nyck(el|lar)/gi))
      expect(m[1]?.toLowerCase(), m[0]).toMatch(/(inloggnings|api-|krypterings)$/);
  });
});
