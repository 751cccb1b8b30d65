import type { Locale } from '@keycard/contract/user-state';
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
} from '../catalogue-checks.ts';
import { loadConsoleTexts } from './catalogues.ts';
import { de } from './de.ts';
import { type ConsoleTexts, en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { id } from './id.ts';
import { it as itTexts } from './it.ts';
import { pt } from './pt.ts';
import { th } from './th.ts';

/**
 * Every console translation. Typed against `Locale`, so a locale added to the contract
 * without a catalogue here is a type error. All checks walk `en`, so a key added to English
 * is checked in every language without touching this file.
 */
const translations: Record<Exclude<Locale, 'en'>, ConsoleTexts> = {
  de,
  es,
  fr,
  id,
  it: itTexts,
  pt,
  th,
};

/**
 * The share of texts a language may leave identical to English: names, acronyms and
 * words a language borrows (Keycard, JSON, Status, Partner). More than this means English
 * was copied in and not translated.
 */
const maxIdenticalShare = 0.15;
/** A text identical to English may be a name or a term, never a sentence. */
const maxIdenticalWords = 3;

/** The texts of a catalogue that are the same as English, as `path: "text"`. */
function identicalToEnglish(texts: unknown): string[] {
  const translated = leaves(texts);
  return [...leaves(en)]
    .filter(([path, source]) => sameText(translated.get(path), source))
    .map(([path, source]) => `${path}: ${JSON.stringify(source)}`);
}

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

  it('find texts left in English', () => {
    expect(identicalToEnglish({ app: { title: en.app.title, language: 'Sprache' } })).toEqual([
      `app.title: ${JSON.stringify(en.app.title)}`,
    ]);
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

describe.each(Object.entries(translations))('%s', (locale, texts) => {
  const translated = leaves(texts);

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

  it(`leaves at most ${maxIdenticalShare * 100}% of texts as in English, and no sentence`, () => {
    const identical = identicalToEnglish(texts);
    expect(
      identical.length / english.size,
      `${locale}: ${identical.length} of ${english.size} texts identical to English: ${identical.join('; ')}`,
    ).toBeLessThanOrEqual(maxIdenticalShare);
    const sentences = [...english]
      .filter(([path, source]) => sameText(translated.get(path), source))
      .filter(([, source]) => String(source).split(/\s+/).length > maxIdenticalWords)
      .map(([path, source]) => `${path}: ${JSON.stringify(source)}`);
    expect(sentences, `${locale}: untranslated sentences`).toEqual([]);
  });

  it('uses the typographic ellipsis where en does, and never three dots', () => {
    expect(ellipsisMismatches(english, translated), `${locale}: ellipsis mismatches`).toEqual([]);
  });

  it('has no stray whitespace', () => {
    expect(strayWhitespace(translated), `${locale}: leading, trailing or doubled whitespace`).toEqual([]);
  });
});

describe('loadConsoleTexts', () => {
  it.each(Object.entries(translations))('returns the %s catalogue', async (locale, texts) => {
    await expect(loadConsoleTexts(locale as Locale)).resolves.toBe(texts);
  });

  it('returns en for en and for an unknown locale', async () => {
    await expect(loadConsoleTexts('en')).resolves.toBe(en);
    await expect(loadConsoleTexts('xx' as Locale)).resolves.toBe(en);
  });
});
