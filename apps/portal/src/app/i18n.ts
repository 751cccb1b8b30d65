import { type Locale, toLocale } from '@keycard/contract/user-state';
import { en, loadTexts } from '@keycard/texts';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/** SPEC §1: the langCode query value, else the browser's languages, else English. */
export function chooseLocale(search: string, browserLanguages: readonly string[]): Locale {
  const fromQuery = toLocale(new URLSearchParams(search).get('langCode'));
  if (fromQuery) return fromQuery;
  for (const language of browserLanguages) {
    const locale = toLocale(language);
    if (locale) return locale;
  }
  return 'en';
}

export async function initI18n(locale: Locale): Promise<typeof i18next> {
  const resources = locale === 'en' ? en : await loadTexts(locale);
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'en',
    resources: {
      en: { translation: en },
      ...(locale === 'en' ? {} : { [locale]: { translation: resources } }),
    },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = locale;
  return i18next;
}
