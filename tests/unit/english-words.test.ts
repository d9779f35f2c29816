// The check of the pages' words (tests/helpers/english.ts, run on every screen by tests/e2e/a11y.test.ts) finds an
// English interface word as a word, and not inside a Swedish one or a name.
import { describe, expect, it } from 'vitest';
import { englishIn } from '#tests/helpers/english.ts';

describe('englishIn', () => {
  it('finds English interface words', () => {
    expect(englishIn(['An error occurred', 'Save', 'Klicka Cancel här', 'Choose File'])).toEqual([
      'An error occurred',
      'Save',
      'Cancel',
      'Choose File',
    ]);
  });
  it('leaves Swedish words and loanwords alone, also those that contain an English word', () => {
    expect(
      englishIn([
        'Spara',
        'Avbryt',
        'Lämna feedback',
        'Webhooks',
        'Exportera',
        'Status',
        'Addera',
        'Paused-badge',
        'Namn',
      ]),
    ).toEqual([]);
  });
});
