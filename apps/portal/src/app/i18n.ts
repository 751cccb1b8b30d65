import { type Locale, toLocale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import { createTranslator, type Translator } from '../lib/i18n.tsx';
import { menuLanguage } from '../lib/language.ts';

/**
 * SPEC §1: the language menu's choice in this browser (a link's langCode never overrides it,
 * issue 19 item 14), else the langCode query value, else the browser's languages, else English.
 */
export function chooseLocale(
  search: string,
  browserLanguages: readonly string[],
  menu: Locale | undefined = menuLanguage(),
): Locale {
  if (menu) return menu;
  const fromQuery = toLocale(new URLSearchParams(search).get('langCode'));
  if (fromQuery) return fromQuery;
  for (const language of browserLanguages) {
    const locale = toLocale(language);
    if (locale) return locale;
  }
  return 'en';
}

/**
 * The translator for the first screen: English's core texts are in the entry chunk (the rest
 * comes with the screens that need it); another language's catalogue loads first.
 */
export async function initI18n(locale: Locale): Promise<Translator> {
  const translator = createTranslator(locale, locale === 'en' ? undefined : await loadTexts(locale));
  document.documentElement.lang = locale;
  return translator;
}
