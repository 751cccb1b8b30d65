import { locales } from '@keycard/contract/user-state';
import { describe, expect, it } from 'vitest';
import { fillText, themeExtrasTexts } from './theme-extras.ts';

/** Every text as path → text. */
function flatten(value: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, text]) =>
      typeof text === 'string'
        ? [[`${prefix}${key}`, text]]
        : Object.entries(flatten(text, `${prefix}${key}.`)),
    ),
  );
}
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('the theme editor’s extra texts', () => {
  const english = flatten(themeExtrasTexts.en);
  it.each(locales.filter((locale) => locale !== 'en'))(
    'are all in %s, with the same placeholders',
    (locale) => {
      const own = flatten(themeExtrasTexts[locale]);
      expect(Object.keys(own).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        expect(placeholders(own[key] ?? ''), `${locale} ${key}`).toEqual(placeholders(text));
        // Translated, not copied (a font or pair name may be a loanword; whole sentences may not).
        if (text.length > 30) expect(own[key], `${locale} ${key}`).not.toBe(text);
      }
    },
  );

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(fillText('{{min}} to {{max}}', { min: 0, max: 24 })).toBe('0 to 24');
    expect(fillText('{{x}}')).toBe('{{x}}');
  });
});
