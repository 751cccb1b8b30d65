import type { Locale } from '@keycard/contract/user-state';
import { describe, expect, it } from 'vitest';
import { loadTexts } from './catalogues.ts';
import { loadConsoleTexts } from './console/catalogues.ts';
import { type ConsoleEnglish, en as consoleEn } from './console/en.ts';
import { type English, en } from './en.ts';
import { enCore } from './en-core.ts';
import {
  chooseForm,
  isPlural,
  keyIn,
  lookup,
  pluralCategory,
  type Translate,
  type Translation,
  Translator,
} from './translator.ts';

/** A small catalogue with the shapes the real ones have: groups, placeholders, plural nodes. */
const english = {
  greeting: 'Hello {{name}}',
  login: { heading: 'Log in', intro: 'Enter your e-mail address.' },
  wait: { one: 'Wait {{count}} minute, {{name}}.', other: 'Wait {{count}} minutes, {{name}}.' },
  trusted: { one: 'A code once a day.', other: 'A code every {{count}} days.' },
  onlyEnglish: 'Only in English',
  reasons: { other: 'Something else', invalid_request: 'The request is malformed.' },
} as const;
type Sample = typeof english;

const german: Translation<Sample> = {
  greeting: 'Hallo {{name}}',
  login: { heading: 'Anmelden', intro: 'Geben Sie Ihre E-Mail-Adresse ein.' },
  wait: { one: 'Warten Sie {{count}} Minute, {{name}}.', other: 'Warten Sie {{count}} Minuten, {{name}}.' },
  trusted: { one: 'Einmal am Tag ein Code.', other: 'Alle {{count}} Tage ein Code.' },
  onlyEnglish: 'Nur auf Englisch',
  reasons: { other: 'Etwas anderes', invalid_request: 'Die Anfrage ist fehlerhaft.' },
};

const thai: Translation<Sample> = {
  greeting: 'สวัสดี {{name}}',
  login: { heading: 'เข้าสู่ระบบ', intro: 'กรอกอีเมลของคุณ' },
  wait: { other: 'โปรดรอ {{count}} นาที {{name}}' },
  trusted: { other: 'ใช้รหัสทุก {{count}} วัน' },
  onlyEnglish: 'เฉพาะภาษาอังกฤษ',
  reasons: { other: 'อื่นๆ', invalid_request: 'คำขอไม่ถูกต้อง' },
};

/** German with a text missing, as a catalogue would be while a key is being added. */
const germanWithGap = { ...german, onlyEnglish: undefined } as unknown as Translation<Sample>;

const loaded: Locale[] = [];
function translator(language: Locale, texts?: Translation<Sample>, base: unknown = english) {
  return new Translator<Sample>(
    language,
    {
      base,
      load: async (locale) => {
        loaded.push(locale);
        return locale === 'th' ? thai : locale === 'de' ? german : english;
      },
    },
    texts,
  );
}

describe('lookup', () => {
  it('finds a text by its dotted key, a plural node as one text', () => {
    expect(lookup(english, 'login.heading')).toBe('Log in');
    expect(lookup(english, 'wait')).toEqual(english.wait);
  });

  it('finds nothing for a missing key, a group, or an inherited property', () => {
    expect(lookup(english, 'login.missing')).toBeUndefined();
    expect(lookup(english, 'login')).toBeUndefined();
    expect(lookup(english, 'constructor')).toBeUndefined();
    expect(lookup(english, 'login.heading.length')).toBeUndefined();
    expect(lookup(undefined, 'login.heading')).toBeUndefined();
  });

  it('tells plural nodes from groups that merely have an `other` entry', () => {
    expect(isPlural(english.wait)).toBe(true);
    expect(isPlural({ other: 'x' })).toBe(true);
    expect(isPlural(english.reasons)).toBe(false);
    expect(isPlural(enCore.errors.provider.reasons)).toBe(false);
    expect(isPlural({ one: 'x' })).toBe(false);
  });
});

describe('t', () => {
  it('fills {{placeholders}} and leaves a text without values as it is', () => {
    const { t } = translator('en', english);
    expect(t('greeting', { name: 'Ana' })).toBe('Hello Ana');
    expect(t('greeting')).toBe('Hello {{name}}');
    expect(t('login.heading')).toBe('Log in');
  });

  it('speaks the current language and falls back to English for a text it lacks', () => {
    const english = translator('en', undefined);
    const { t } = translator('de', germanWithGap);
    expect(t('login.heading')).toBe('Anmelden');
    expect(t('onlyEnglish')).toBe('Only in English');
    expect(english.t('login.heading')).toBe('Log in');
  });

  it('shows the key of a text no catalogue has (a key computed at run time)', () => {
    const { t } = translator('de', german);
    expect((t as (key: string) => string)('login.nowhere')).toBe('login.nowhere');
  });

  it('chooses a plural form by count with the language’s rules', () => {
    const de = translator('de', german).t;
    expect(de('wait', { count: 1, name: 'Ana' })).toBe('Warten Sie 1 Minute, Ana.');
    expect(de('wait', { count: 5, name: 'Ana' })).toBe('Warten Sie 5 Minuten, Ana.');
    expect(de('trusted', { count: 1 })).toBe('Einmal am Tag ein Code.');
    expect(de('trusted', { count: 0 })).toBe('Alle 0 Tage ein Code.');
    const th = translator('th', thai).t;
    expect(th('trusted', { count: 1 })).toBe('ใช้รหัสทุก 1 วัน');
  });

  it('chooses English’s form by English’s rules when it falls back to English', () => {
    const gap = { ...thai, wait: undefined } as unknown as Translation<Sample>;
    const { t } = translator('th', gap);
    expect(t('wait', { count: 1, name: 'Ana' })).toBe('Wait 1 minute, Ana.');
    expect(t('wait', { count: 2, name: 'Ana' })).toBe('Wait 2 minutes, Ana.');
  });

  it('writes the count as the page’s language does', () => {
    const de = translator('de', german).t;
    expect(de('wait', { count: 1.5, name: 'Ana' })).toBe('Warten Sie 1,5 Minuten, Ana.');
    expect(de('wait', { count: 1500, name: 'Ana' })).toBe('Warten Sie 1.500 Minuten, Ana.');
    const en = translator('en', english).t;
    expect(en('wait', { count: 1500, name: 'Ana' })).toBe('Wait 1,500 minutes, Ana.');
  });

  it('uses `other` when a plural text is given no count', () => {
    const { t } = translator('en', english);
    expect((t as (key: string) => string)('wait')).toBe('Wait {{count}} minutes, {{name}}.');
  });
});

describe('tenant overrides', () => {
  it('replace a text in their own language only, shown exactly as written', () => {
    const translatorDe = translator('de', german);
    translatorDe.setOverrides({
      de: { 'login.heading': 'Willkommen {{name}}' },
      en: { 'login.intro': 'Your work e-mail, please.' },
    });
    expect(translatorDe.t('login.heading', { name: 'Ana' })).toBe('Willkommen {{name}}');
    expect(translatorDe.t('login.intro')).toBe('Geben Sie Ihre E-Mail-Adresse ein.');
    translatorDe.use('en', english);
    expect(translatorDe.t('login.heading')).toBe('Log in');
    expect(translatorDe.t('login.intro')).toBe('Your work e-mail, please.');
  });

  it('find nothing through inherited names, and go when replaced', () => {
    const translatorEn = translator('en', english);
    translatorEn.setOverrides({ en: {} });
    expect((translatorEn.t as (key: string) => string)('constructor')).toBe('constructor');
    translatorEn.setOverrides({ en: { 'login.heading': 'Sign in' } });
    expect(translatorEn.t('login.heading')).toBe('Sign in');
    translatorEn.setOverrides(undefined);
    expect(translatorEn.t('login.heading')).toBe('Log in');
  });
});

describe('Translator', () => {
  it('speaks from its base until the whole catalogue is there, then notifies', async () => {
    const core = { login: { heading: 'Log in (core)' } };
    const page = translator('de', undefined, core);
    let changes = 0;
    const stop = page.subscribe(() => changes++);
    const before = page.t;
    expect(page.t('login.heading')).toBe('Log in (core)');
    expect(page.has('de')).toBe(false);
    await page.complete();
    expect(page.has('de')).toBe(true);
    expect(page.t('login.heading')).toBe('Anmelden');
    expect(page.t).not.toBe(before);
    expect(changes).toBe(1);
    await page.complete();
    expect(changes).toBe(1);
    stop();
  });

  it('loads a language once when switching to it', async () => {
    loaded.length = 0;
    const page = translator('en', english);
    await page.switchTo('th');
    expect(page.language).toBe('th');
    expect(page.t('login.heading')).toBe('เข้าสู่ระบบ');
    await page.switchTo('en');
    await page.switchTo('th');
    expect(loaded).toEqual(['th']);
  });
});

describe('plural rules', () => {
  it('select CLDR categories per language, Portuguese as spoken in Portugal', () => {
    expect([0, 1, 2, 1.5].map((n) => pluralCategory('en', n))).toEqual(['other', 'one', 'other', 'other']);
    expect([0, 1, 2, 1.5].map((n) => pluralCategory('fr', n))).toEqual(['one', 'one', 'other', 'one']);
    expect([0, 1, 2, 1.5].map((n) => pluralCategory('pt', n))).toEqual(['other', 'one', 'other', 'other']);
    expect(pluralCategory('es', 1_000_000)).toBe('many');
    expect([0, 1, 2].map((n) => pluralCategory('th', n))).toEqual(['other', 'other', 'other']);
  });

  it('choose a form, falling back to `other` for a category the text lacks', () => {
    expect(chooseForm({ one: 'one', other: 'other' }, 'en', 1)).toBe('one');
    expect(chooseForm({ one: 'one', other: 'other' }, 'fr', 1_000_000)).toBe('other');
    expect(chooseForm({ one: 'one', other: 'other' }, 'en', '1')).toBe('other');
    expect(chooseForm('plain', 'en', 1)).toBe('plain');
  });
});

describe('keyIn', () => {
  it('gives the typed key of a name known at run time, or undefined', () => {
    expect(keyIn(enCore, 'errors.provider.reasons', 'invalid_request')).toBe(
      'errors.provider.reasons.invalid_request',
    );
    expect(keyIn(enCore, 'errors.provider.reasons', 'no_such_code')).toBeUndefined();
    expect(keyIn(enCore, 'errors.provider.reasons', 'constructor')).toBeUndefined();
    expect(keyIn(consoleEn, 'errors', 'common.validation_failed')).toBe('errors.common.validation_failed');
  });
});

describe('typed keys', () => {
  it('refuse a misspelt key and a plural text without a count (checked by tsc)', () => {
    const t: Translate<English> = new Translator<English>('en', { base: en, load: loadTexts }, en).t;
    // @ts-expect-error: a typo is not a key.
    t('login.emial.heading');
    // @ts-expect-error: a group is not a text.
    t('login.email');
    // @ts-expect-error: a plural text needs its count.
    t('mfa.common.trustDevice');
    // @ts-expect-error: the count is a number.
    t('mfa.common.trustDevice', { count: '3' });
    expect(t('mfa.common.trustDevice', { count: 3 })).toBe('Trust this device: do not ask again for 3 days');
    expect(t('mfa.common.trustDevice', { count: 1 })).toBe('Trust this device: do not ask again for 1 day');
  });

  it('refuse a misspelt console key too (checked by tsc)', () => {
    const t: Translate<ConsoleEnglish> = new Translator<ConsoleEnglish>(
      'en',
      { base: consoleEn, load: loadConsoleTexts },
      consoleEn,
    ).t;
    // @ts-expect-error: a typo is not a key.
    t('contrast.allPases', { count: 6 });
    // @ts-expect-error: "N of M pairs fail" needs its count.
    t('contrast.someFail', { total: 6 });
    expect(t('contrast.someFail', { count: 1, total: 6 })).toBe('1 of 6 pairs fails.');
    expect(t('contrast.someFail', { count: 2, total: 6 })).toBe('2 of 6 pairs fail.');
  });
});
