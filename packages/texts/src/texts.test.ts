import { type Locale, locales, overridableTextKeys } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import {
  compareKeys,
  ellipsisMismatches,
  leaves,
  malformedTexts,
  placeholderMismatches,
  placeholders,
  sameText,
  strayBraces,
  strayWhitespace,
  wordings,
} from './catalogue-checks.ts';
import { de } from './de.ts';
import { en, type Texts } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { id } from './id.ts';
import { format, loadTexts } from './index.ts';
import { it as itTexts } from './it.ts';
import { pt } from './pt.ts';
import { th } from './th.ts';

/**
 * Every translated catalogue. Typed against `Locale`, so adding a locale to the contract
 * without a catalogue here is a type error. All checks below walk `en`, so new English
 * keys are covered automatically.
 */
const translations: Record<Exclude<Locale, 'en'>, Texts> = {
  de,
  es,
  fr,
  id,
  it: itTexts,
  pt,
  th,
};

/**
 * English values a language may legitimately keep unchanged. Keep this minimal: every
 * entry must actually be used (checked below), so stale entries fail the test.
 */
const sameAsEnglish: Record<Exclude<Locale, 'en'>, readonly string[]> = {
  de: ['Keycard'],
  es: ['Keycard'],
  fr: ['Keycard'],
  id: ['Keycard'],
  it: ['Keycard', 'Password'],
  pt: ['Keycard', 'E-mail'],
  th: ['Keycard'],
};

const english = leaves(en);

describe('test helpers', () => {
  it('find missing and extra key paths, including nested ones', () => {
    expect(compareKeys({ a: { b: 'x', c: 'y' }, d: 'z' }, { a: { b: 'x' }, d: { e: 'z' } })).toEqual({
      missing: ['a.c', 'd'],
      extra: ['d.e'],
    });
  });

  it('extract placeholders and spot malformed ones', () => {
    expect(placeholders('{{b}} and {{a}} and {{b}}')).toEqual(['a', 'b']);
    expect(strayBraces('Hello {{name}}')).toBe(false);
    expect(strayBraces('Hello {name}')).toBe(true);
    expect(strayBraces('Hello {{ name }}')).toBe(true);
  });
});

describe('en', () => {
  it('has only non-empty texts (strings or plural nodes) and well-formed placeholders', () => {
    expect(english.size).toBeGreaterThan(0);
    for (const [path, value] of english) {
      expect(wordings(value).length, `${path}: neither a string nor a plural node`).toBeGreaterThan(0);
      for (const wording of wordings(value)) {
        expect(wording.trim(), path).not.toBe('');
        expect(strayBraces(wording), `${path}: malformed placeholder`).toBe(false);
      }
    }
  });
});

describe('theme text overrides', () => {
  it('name texts that exist and take no parameter, so an override replaces the whole text', () => {
    for (const key of overridableTextKeys) {
      const source = english.get(key);
      expect(typeof source, key).toBe('string');
      expect(placeholders(String(source)), key).toEqual([]);
    }
  });
});

describe.each(Object.entries(translations))('%s', (locale, texts) => {
  const translated = leaves(texts);
  const allowed = sameAsEnglish[locale as Exclude<Locale, 'en'>];

  it('has exactly the same key paths as en', () => {
    const { missing, extra } = compareKeys(en, texts);
    expect(
      { missing, extra },
      `${locale}: missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`,
    ).toEqual({ missing: [], extra: [] });
  });

  it('has a non-empty text for every key (a string, or a plural node where en has one)', () => {
    expect(malformedTexts(english, translated), `${locale}: values that are not non-empty strings`).toEqual(
      [],
    );
  });

  it('uses the same {{placeholders}} as en', () => {
    expect(placeholderMismatches(english, translated), `${locale}: placeholder mismatches`).toEqual([]);
  });

  it('translates every text (except allow-listed ones)', () => {
    const untranslated = [...english]
      .filter(([path, source]) => sameText(translated.get(path), source) && !allowed.includes(String(source)))
      .map(([path, source]) => `${path}: ${JSON.stringify(source)}`);
    expect(untranslated, `${locale}: identical to English`).toEqual([]);
  });

  it('keeps its allow-list minimal', () => {
    const used = new Set(
      [...english]
        .filter(([path, source]) => sameText(translated.get(path), source))
        .map(([, source]) => source),
    );
    expect(
      allowed.filter((value) => !used.has(value)),
      `${locale}: allow-listed values no longer identical to English`,
    ).toEqual([]);
  });

  it('uses the typographic ellipsis where en does, and never three dots', () => {
    expect(ellipsisMismatches(english, translated), `${locale}: ellipsis mismatches`).toEqual([]);
  });

  it('has no stray whitespace', () => {
    expect(strayWhitespace(translated), `${locale}: leading, trailing or doubled whitespace`).toEqual([]);
  });
});

describe('loadTexts', () => {
  it.each(Object.entries(translations))('returns the %s catalogue', async (locale, texts) => {
    await expect(loadTexts(locale as Locale)).resolves.toBe(texts);
  });

  it('returns en for en', async () => {
    await expect(loadTexts('en')).resolves.toBe(en);
  });

  it('covers every locale of the contract', async () => {
    for (const locale of locales) {
      const texts = await loadTexts(locale);
      expect(texts, locale).toBe(locale === 'en' ? en : translations[locale]);
    }
  });

  it('falls back to en for an unknown locale', async () => {
    await expect(loadTexts('xx' as Locale)).resolves.toBe(en);
  });
});

describe('format', () => {
  it('fills placeholders', () => {
    expect(format('Logging in as {{email}}', { email: 'ana@example.com' })).toBe(
      'Logging in as ana@example.com',
    );
    expect(format(de.common.logoAlt, { name: 'Keycard' })).toBe('Logo von Keycard');
  });

  it('fills every occurrence and converts numbers', () => {
    expect(format('{{n}} of {{total}}, {{n}} again', { n: 3, total: 10 })).toBe('3 of 10, 3 again');
    expect(format('{{zero}}', { zero: 0 })).toBe('0');
  });

  it('leaves unknown placeholders as they are', () => {
    expect(format('Hello {{name}}, {{missing}}', { name: 'Ana' })).toBe('Hello Ana, {{missing}}');
  });

  it('returns text without placeholders unchanged', () => {
    expect(format(en.common.loading, {})).toBe('Loading…');
    expect(format('{single} braces', { single: 'x' })).toBe('{single} braces');
  });

  it('does not interpret replacement patterns in values', () => {
    expect(format('{{a}}', { a: '$& $1 $$' })).toBe('$& $1 $$');
  });

  it('fills every placeholder of every catalogue, leaving no braces behind', () => {
    for (const [locale, texts] of [['en', en] as const, ...Object.entries(translations)]) {
      for (const [path, value] of leaves(texts)) {
        for (const wording of wordings(value)) {
          const values = Object.fromEntries(placeholders(wording).map((name) => [name, 'X']));
          expect(format(wording, values), `${locale}.${path}`).not.toMatch(/[{}]/);
        }
      }
    }
  });
});
