import { type Locale, storageKeys, toLocale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import type { Translator } from './i18n.tsx';

const oneYear = 365 * 24 * 60 * 60;

/** The language this browser chose before (the AUTH_X_LANG cookie), if any. */
export function rememberedLanguage(): Locale | undefined {
  const entry = document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${storageKeys.languageCookie}=`));
  return toLocale(entry?.slice(storageKeys.languageCookie.length + 1));
}

/**
 * Keeps the language for this browser (a cookie, so the server renders later pages in it
 * too): every flow, mail link and redirect after this one opens in the same language.
 */
export function rememberLanguage(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party preference cookie, read by the server
  document.cookie = `${storageKeys.languageCookie}=${locale}; Max-Age=${oneYear}; Path=/; SameSite=Lax${secure}`;
}

/** The language menu's choice: texts loaded, the page switched, the choice remembered. */
export async function switchLanguage(translator: Translator, locale: Locale): Promise<void> {
  translator.use(locale, translator.has(locale) ? undefined : await loadTexts(locale));
  document.documentElement.lang = locale;
  rememberLanguage(locale);
  // A langCode in the address would win on the next load: it follows the choice.
  const url = new URL(window.location.href);
  if (url.searchParams.has('langCode')) {
    url.searchParams.set('langCode', locale);
    window.history.replaceState(window.history.state, '', url);
  }
}
