import { type Locale, storageKeys, toLocale } from '@keycard/contract/user-state';
import { loadTexts } from '@keycard/texts/catalogues';
import type { Translator } from './i18n.tsx';

const oneYear = 365 * 24 * 60 * 60;

/**
 * The language the page is in now (the menu's choice included), for a request that sends a
 * message: the text, the call or the mail is in it (issue 19, item 14).
 */
export function pageLanguage(): { langCode?: Locale } {
  const locale = toLocale(document.documentElement.lang);
  return locale ? { langCode: locale } : {};
}

function cookieLanguage(name: string): Locale | undefined {
  const entry = document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`));
  return toLocale(entry?.slice(name.length + 1));
}

/** The language this browser chose before (the AUTH_X_LANG cookie), if any. */
export const rememberedLanguage = () => cookieLanguage(storageKeys.languageCookie);

/** The language picked in this browser's language menu, if any: no mail link's langCode beats it. */
export const menuLanguage = () => cookieLanguage(storageKeys.languageMenuCookie);

/**
 * Keeps the language for this browser (a cookie, so the server renders later pages in it
 * too): every flow, mail link and redirect after this one opens in the same language.
 */
export function rememberLanguage(locale: Locale, name: string = storageKeys.languageCookie): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party preference cookie, read by the server
  document.cookie = `${name}=${locale}; Max-Age=${oneYear}; Path=/; SameSite=Lax${secure}`;
}

/** The language menu's choice: texts loaded, the page switched, the choice remembered. */
export async function switchLanguage(translator: Translator, locale: Locale): Promise<void> {
  translator.use(locale, translator.has(locale) ? undefined : await loadTexts(locale));
  document.documentElement.lang = locale;
  rememberLanguage(locale);
  rememberLanguage(locale, storageKeys.languageMenuCookie);
  // A langCode in the address would win on the next load: it follows the choice.
  const url = new URL(window.location.href);
  if (url.searchParams.has('langCode')) {
    url.searchParams.set('langCode', locale);
    window.history.replaceState(window.history.state, '', url);
  }
}
