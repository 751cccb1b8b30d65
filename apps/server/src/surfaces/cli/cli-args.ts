import { canonicalEmail, type Locale, locales, toLocale, type UserType, userTypes } from '@keycard/contract';

/** A command line Keycard cannot run: the message is printed above the usage (exit code 2). */
export class UsageError extends Error {}

export function required(values: Record<string, string | string[] | undefined>, name: string): string {
  const raw = values[name];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

export function userTypeOf(value: string | undefined): UserType {
  const type = (value ?? 'staff').trim().toLowerCase();
  if (!(userTypes as readonly string[]).includes(type)) {
    throw new UsageError(`--type must be one of ${userTypes.join(', ')}`);
  }
  return type as UserType;
}

export function localeOf(value: string | undefined): Locale {
  const locale = toLocale(value ?? 'en');
  if (!locale) {
    throw new UsageError(`--locale must be one of ${locales.join(', ')}`);
  }
  return locale;
}

export function emailOf(value: string): string {
  const email = canonicalEmail(value);
  if (email === undefined)
    throw new UsageError(`--email ${value} is not an e-mail address (no look-alike Unicode)`);
  return email;
}
