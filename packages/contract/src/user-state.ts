export const userStates = [
  'MFA_REGISTRATION_RECOMMENDED',
  'MFA_REGISTRATION_REQUIRED',
  'MFA_VERIFICATION_REQUIRED',
  'AUTHENTICATED',
  'PASSWORD_EXPIRED',
] as const;
export type UserState = (typeof userStates)[number];

export const userTypes = ['staff', 'property', 'partner', 'enterprise'] as const;
export type UserType = (typeof userTypes)[number];

export const locales = ['en', 'de', 'es', 'fr', 'id', 'it', 'pt', 'th'] as const;
export type Locale = (typeof locales)[number];

/** SPEC §1: only the part before the dash counts; unknown languages fall back to en. */
export function toLocale(value: string | null | undefined): Locale | undefined {
  if (!value) return undefined;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return (locales as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
}

/** How a session first proved who it is: password, partner (authx), or a passkey (no password). */
export const identityProviders = ['keycard', 'authx', 'passkey'] as const;
export type IdentityProvider = (typeof identityProviders)[number];

/** SPEC §3 browser storage keys. */
export const storageKeys = {
  lastUser: 'AUTH_X_LAST_USER',
  redirectUri: 'AUTH_X_REDIRECT_URI',
  iid: 'AUTH_X_IID',
  deviceId: 'AUTH_X_DEVICE_ID',
  sessionCookie: 'AUTH_X_TOKEN',
  /** HttpOnly: a browser that signed in to an account before (lockout keyed apart). */
  knownBrowserCookie: 'AUTH_X_BROWSER',
  /** Per tab: the user chose 'reset later' on the password-will-expire page. */
  expiryAcknowledged: 'AUTH_X_EXPIRY_ACKNOWLEDGED',
  /**
   * Cookie, one year: the language this browser chose (the language menu, or a langCode it
   * arrived with), so every later page, flow and redirect keeps it. Read by the server too.
   */
  languageCookie: 'AUTH_X_LANG',
  /**
   * Cookie, one year: a language picked in the language menu of this browser. It outranks a
   * mail link's langCode (issue 19 item 14); a langCode still outranks Accept-Language.
   */
  languageMenuCookie: 'AUTH_X_LANG_MENU',
} as const;

/** Each language by its own name, for the language menu. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  id: 'Bahasa Indonesia',
  it: 'Italiano',
  pt: 'Português',
  th: 'ไทย',
};
