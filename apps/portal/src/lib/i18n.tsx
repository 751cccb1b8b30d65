import type { ThemeTexts } from '@keycard/contract/theme-texts';
import type { Locale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import type { English, Texts } from '@keycard/texts/en';
import { enCore } from '@keycard/texts/en-core';
import {
  Translator as CoreTranslator,
  type PlainKey,
  type Translate as TranslateOf,
} from '@keycard/texts/translator';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';

/**
 * The portal's binding of the shared translator (`@keycard/texts/translator`). The login route
 * carries English's core texts only (the fallback of last resort); a flow's screens wait for
 * their language's whole catalogue (`ensureTexts`, called as their chunk loads), which for
 * English adds the lifecycle and MFA texts. A tenant's theme may override a few texts per
 * language (`texts`, contract theme-texts.ts): the current language's overrides come first,
 * then its catalogue; another language's override is never used.
 */
export type { TranslateValues } from '@keycard/texts/translator';
export type Translate = TranslateOf<English>;
/** A key of the portal's texts that takes no `count` (a screen may keep one in its state). */
export type PortalTextKey = PlainKey<English>;

export class Translator extends CoreTranslator<English> {
  /** `texts`: the language's whole catalogue, or none yet (English starts with its core). */
  constructor(language: Locale, texts?: Texts) {
    super(language, { base: enCore, load: loadTexts }, texts);
  }
}

/** The page's translator (one per page load). */
let current: Translator | undefined;

export function createTranslator(language: Locale, texts?: Texts): Translator {
  current = new Translator(language, texts);
  return current;
}

/**
 * Shows a tenant's own wording: `texts` is a theme's `texts` (per language, key → text), from
 * the tenant's theme at start or a draft theme in the admin console's preview. Replaces the
 * overrides given before; every screen re-renders with them, in whichever language it shows.
 */
export function applyTextOverrides(translator: Translator, texts: ThemeTexts | undefined): void {
  translator.setOverrides(texts);
}

/** Resolves once the page language's whole catalogue is there (lazy screens wait for it). */
export function ensureTexts(): Promise<void> {
  return current ? current.complete() : Promise.resolve();
}

const TranslatorContext = createContext<Translator | null>(null);

export function I18nProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/** The current language's `t`, re-rendering the component when the language changes. */
export function useTranslation(): { t: Translate; i18n: { language: Locale } } {
  const translator = useTranslator();
  const t = useSyncExternalStore(translator.subscribe, () => translator.t);
  const language = translator.language;
  return useMemo(() => ({ t, i18n: { language } }), [t, language]);
}

/** The translator itself, for the language menu. */
export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslation is used inside <I18nProvider>.');
  return translator;
}
