import type { BrowserSummary } from '@keycard/contract';

// Order matters: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari",
// and browsers on iOS name their engine last.
const browsers: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bAppleWebKit\/.*\bMobile\//, 'Safari'],
];

const systems: Array<[RegExp, string]> = [
  [/\biPad\b/, 'iPadOS'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * What the account page says about a browser, read from its User-Agent header: its name and
 * system, brand names only (the page words them in its language). Nothing is trusted from it:
 * it is what the browser claims, shown so a person recognises their own devices.
 */
export function browserSummary(userAgent: string | null | undefined): BrowserSummary | null {
  if (!userAgent) return null;
  const ua = userAgent.slice(0, 512);
  const name = browsers.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  const os = systems.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  const mobile = /\bMobile\b|\biPad\b|\bAndroid\b/.test(ua);
  return { name, os, mobile };
}
