import { type Locale, locales } from '@keycard/contract/user-state';
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import { type ConsoleTexts, en } from '../texts/en.ts';

/**
 * The console's translations: English is bundled (the fallback for any missing key); each
 * other language is a chunk of its own, loaded when chosen. Keys are dotted paths of en.ts.
 */
type DeepPartial<T> = { [K in keyof T]?: T[K] extends string ? string : DeepPartial<T[K]> };
/** What a translation file exports: the English shape, every key optional. */
export type ConsoleCatalogue = DeepPartial<ConsoleTexts>;

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type TextKey = Leaves<ConsoleTexts>;
export type Translate = (key: TextKey, values?: Record<string, string | number>) => string;

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<ConsoleCatalogue>> = {
  de: () => import('../texts/de.ts').then((m) => m.de),
  es: () => import('../texts/es.ts').then((m) => m.es),
  fr: () => import('../texts/fr.ts').then((m) => m.fr),
  id: () => import('../texts/id.ts').then((m) => m.id),
  it: () => import('../texts/it.ts').then((m) => m.it),
  pt: () => import('../texts/pt.ts').then((m) => m.pt),
  th: () => import('../texts/th.ts').then((m) => m.th),
};

/** Each language's name in itself, for the language menu. */
export const languageNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  id: 'Bahasa Indonesia',
  it: 'Italiano',
  pt: 'Português',
  th: 'ไทย',
};

const storageKey = 'keycard-console:language';

function lookup(catalogue: unknown, key: string): string | undefined {
  let node = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function fill(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

class Translator {
  language: Locale = 'en';
  catalogue: ConsoleCatalogue = en;
  readonly #listeners = new Set<() => void>();
  t: Translate = this.#make();

  async use(language: Locale): Promise<void> {
    const catalogue = language === 'en' ? en : await loaders[language]();
    this.language = language;
    this.catalogue = catalogue;
    this.t = this.#make();
    document.documentElement.lang = language;
    try {
      localStorage.setItem(storageKey, language);
    } catch {
      // Storage refused (private mode): the choice lasts this page only.
    }
    for (const listener of this.#listeners) listener();
  }

  /** A text by a key computed at run time (an error code), or undefined when there is none. */
  optional(key: string, values?: Record<string, string | number>): string | undefined {
    const text = lookup(this.catalogue, key) ?? lookup(en, key);
    return text === undefined ? undefined : fill(text, values);
  }

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #make(): Translate {
    const catalogue = this.catalogue;
    return (key, values) => fill(lookup(catalogue, key) ?? lookup(en, key) ?? key, values);
  }
}

export const translator = new Translator();

/** The remembered language, else the browser's first known one, else English. */
export function initialLanguage(): Locale {
  const known = (tag: string | null | undefined): Locale | undefined => {
    const base = tag?.toLowerCase().split('-')[0];
    return (locales as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
  };
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(storageKey);
  } catch {
    remembered = null;
  }
  return known(remembered) ?? navigator.languages.map(known).find(Boolean) ?? 'en';
}

const I18nContext = createContext(translator);

export function I18nProvider({ children }: { children: ReactNode }) {
  return <I18nContext.Provider value={translator}>{children}</I18nContext.Provider>;
}

export function useTranslation(): { t: Translate; language: Locale; translator: Translator } {
  const value = useContext(I18nContext);
  const t = useSyncExternalStore(value.subscribe, () => value.t);
  return { t, language: value.language, translator: value };
}
