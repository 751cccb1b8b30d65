import type { BrowserSummary } from '@keycard/contract/account';
import type { Translate } from '../../lib/i18n.tsx';

/** A date in the page's language ("27 Nov 2026"). */
export function formatDate(language: string, at: number): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(at);
}

/** A moment in the page's language, to the minute ("27 Nov 2026, 14:05"). */
export function formatMoment(language: string, at: number): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/** A browser in words: its brand and system as the server read them, worded in the page's language. */
export function browserLabel(t: Translate, browser: BrowserSummary | null): string {
  if (browser?.name && browser.os)
    return t('account.browser.onSystem', { name: browser.name, os: browser.os });
  if (browser?.name) return browser.name;
  if (browser?.os) return t('account.browser.systemOnly', { os: browser.os });
  return t('account.browser.unknown');
}
